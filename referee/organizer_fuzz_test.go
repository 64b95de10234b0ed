package referee

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/refereed/refereed/referee/organizer"
	"github.com/refereed/refereed/store"
	"github.com/refereed/refereed/variant"
)

// FuzzOrganize: any line from the organizer is done or refused, never a panic, and a refused
// line changes nothing in the store. One tournament serves every input, so that lines find
// games going, finished, paused and replaced.
func FuzzOrganize(f *testing.F) {
	for _, s := range []string{"STANDINGS", "ADJUDICATE 1 1-0 lost on the board", "ADJUDICATE #2 1/2", "EXTEND 2 5 black", "EXTEND 3 0",
		"REPLACE a@example.com z@example.com", "WITHDRAW b@example.com", "PAUSE", "RESUME", "LEAVE c@example.com 2027-01-01 2027-01-05",
		"SHOW 1", "SHOW 99", "HELP", "", "adjudicate 1 2-0", "EXTEND 1 9999999999999999999", "LEAVE c@example.com 2027-02-30"} {
		f.Add(s)
	}
	dir, err := os.MkdirTemp("", "fuzz-organize")
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { os.RemoveAll(dir) })
	db, err := store.Open(filepath.Join(dir, "r.db"), store.Options{NoSync: true})
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { db.Close() })
	db.Now = func() time.Time { return fixedNow }
	ref := &Referee{DB: db, Address: "referee@example.org"}
	id, err := ref.Tournaments().New(organizer.Options{Name: "Fuzz Cup", Variant: "orthodox", Players: []string{"a@example.com", "b@example.com", "c@example.com", "d@example.com"},
		Organizer: "td@example.org", Time: "10d+1d"})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, line string) {
		if len(line) > 1000 || strings.ContainsAny(line, "\r\n") {
			return // the mail's reader gives organize one line of at most a few hundred bytes
		}
		before, err := db.Dump()
		if err != nil {
			t.Fatal(err)
		}
		// As from the organizer's mail: a refused line's transaction still commits (the lines
		// before it were done), so a refusal must come before any change.
		var out string
		var refused error
		err = db.Update(func(tx *store.Tx) error {
			tr, err := tx.Tournament(id)
			if err != nil {
				return err
			}
			paras, oerr := ref.organize(tx, tr, "td@example.org", line)
			out = strings.Join(paras, "\n")
			if oerr != nil && !variant.IsRejection(oerr) {
				t.Fatalf("%q: %v", line, oerr)
			}
			refused = oerr
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		err = refused
		switch {
		case unrendered(out) || (err != nil && unrendered(err.Error())):
			t.Fatalf("%q: a missing sentence: %s", line, out)
		case err != nil:
			after, derr := db.Dump()
			if derr != nil {
				t.Fatal(derr)
			}
			if !reflect.DeepEqual(before, after) {
				t.Fatalf("%q: refused (%v) but the store changed", line, err)
			}
		}
	})
}

// unrendered reports whether a line of text is what templates.Say gives for a sentence it
// cannot render: "[name]" alone (a bracket the organizer typed is echoed inside a sentence).
func unrendered(text string) bool {
	for _, line := range strings.Split(text, "\n") {
		if w := missingWords.FindString(line); w != "" && w == strings.TrimSpace(line) {
			return true
		}
	}
	return false
}
