package clocks

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/refereed/refereed/store"
	"github.com/refereed/refereed/variant"
)

// A LEAVE's dates: one day or a span, forwards, not too long; the days it takes in each year.
func TestParseLeave(t *testing.T) {
	lr, err := ParseLeave([]string{"2027-12-30", "2028-01-02"})
	if err != nil || lr.Days() != 4 || lr.String() != "2027-12-30 2028-01-02" {
		t.Fatalf("%v %v", lr, err)
	}
	if DaysIn(lr.From, lr.To, 2027) != 2 || DaysIn(lr.From, lr.To, 2028) != 2 || DaysIn(lr.From, lr.To, 2029) != 0 {
		t.Errorf("days in each year: %d %d", DaysIn(lr.From, lr.To, 2027), DaysIn(lr.From, lr.To, 2028))
	}
	if lr, err := ParseLeave([]string{"2027-01-05"}); err != nil || lr.Days() != 1 {
		t.Errorf("one day: %v %v", lr, err)
	}
	long := []string{"2027-01-01", time.Date(2027, 1, 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, MaxLeaveSpan).Format("2006-01-02")}
	for _, args := range [][]string{long, nil, {"tomorrow"}, {"2027-01-05", "2027-01-01"}, {"a", "b", "c"}} {
		if _, err := ParseLeave(args); !variant.IsRejection(err) {
			t.Errorf("%q: %v, want a refusal", args, err)
		}
	}
}

// The allowance is the least of the tournaments' he plays in, else the keeper's, else the
// default.
func TestLeaveAllowance(t *testing.T) {
	k := &Keeper{}
	if got := k.leaveAllowance(nil, "a@x"); got != DefaultLeaveDays {
		t.Errorf("default: %d", got)
	}
	k.LeaveDays = 20
	if got := k.leaveAllowance(nil, "a@x"); got != 20 {
		t.Errorf("the keeper's: %d", got)
	}
	ts := []store.Tournament{{LeaveDays: 30, Players: []string{"a@x"}}, {LeaveDays: 10, Players: []string{"a@x"}}, {LeaveDays: 5, Players: []string{"b@x"}}}
	if got := k.leaveAllowance(ts, "a@x"); got != 10 {
		t.Errorf("the tournaments': %d", got)
	}
}

// The deadline check on a store with nothing due does nothing, and reads no game.
func TestCheckDeadlinesNothingDue(t *testing.T) {
	db, err := store.Open(filepath.Join(t.TempDir(), "c.db"), store.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	k := &Keeper{DB: db}
	if n, err := k.CheckDeadlines(); n != 0 || err != nil {
		t.Errorf("%d %v", n, err)
	}
}
