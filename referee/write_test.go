package referee

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestOnlyPlayWritesGames: the game aggregate (package play) is the only code that writes a
// game: nothing else in the module creates or puts a stored game, appends to a game's log or
// submits to a live game. The store implements those calls; tests may seed a store.
func TestOnlyPlayWritesGames(t *testing.T) {
	writes := regexp.MustCompile(`\.(PutGame|CreateGame|AppendEvent)\(|\bLive(\(\))?\.Submit\(`)
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	allowed := []string{"referee/play/", "store/"}
	checked := 0
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(rel, ".go") || strings.HasSuffix(rel, "_test.go") {
			return nil
		}
		for _, a := range allowed {
			if strings.HasPrefix(rel, a) {
				return nil
			}
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		checked++
		for i, line := range strings.Split(string(src), "\n") {
			if writes.MatchString(line) && !strings.HasPrefix(strings.TrimSpace(line), "//") {
				t.Errorf("%s:%d writes a game outside package play: %s", rel, i+1, strings.TrimSpace(line))
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 50 {
		t.Fatalf("only %d files checked: the walk did not find the module", checked)
	}
}
