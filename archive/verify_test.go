package archive_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/refereed/refereed/archive"
	_ "github.com/refereed/refereed/variant/all"
)

// VerifyFile reports, in file order and whatever the workers, each game that is invalid or
// has warnings, and counts every game.
func TestVerifyFile(t *testing.T) {
	var pgn strings.Builder
	for i := 0; i < 100; i++ {
		switch i % 10 {
		case 3:
			pgn.WriteString("1. e4 e5 2. Ke3 *\n\n") // invalid
		case 7:
			pgn.WriteString("1. e4 e5 2. Qh5# Nc6 *\n\n") // a warning
		default:
			pgn.WriteString("1. e4 e5 2. Nf3 Nc6 *\n\n")
		}
	}
	file := filepath.Join(t.TempDir(), "a.pgn")
	os.WriteFile(file, []byte(pgn.String()), 0o644)
	for _, workers := range []int{1, 2, 7} {
		var got []archive.Verdict
		n, err := archive.VerifyFile(context.Background(), file, workers, func(v archive.Verdict) { got = append(got, v) })
		if err != nil || n != 100 || len(got) != 20 {
			t.Fatalf("-j %d: %d games, %d verdicts, %v", workers, n, len(got), err)
		}
		for i, v := range got {
			want := 4 + 10*(i/2)
			if i%2 == 1 {
				want += 4
			}
			if v.Game != want || v.Invalid(false) != (i%2 == 0) || v.Invalid(true) != true {
				t.Fatalf("-j %d: verdict %d is game %d (invalid %v), want game %d", workers, i, v.Game, v.Invalid(false), want)
			}
		}
	}
	empty := filepath.Join(t.TempDir(), "empty.pgn")
	os.WriteFile(empty, nil, 0o644)
	if _, err := archive.VerifyFile(context.Background(), empty, 2, func(archive.Verdict) {}); err != archive.ErrNoGames {
		t.Errorf("an empty file: %v", err)
	}
}
