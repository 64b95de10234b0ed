package archive

import (
	"time"

	"github.com/refereed/refereed/clock"
	"github.com/refereed/refereed/store"
)

// When a game's clocks stand still: its players' leave and its tournament's pauses (the
// clocks themselves are package tournament's, pure).

// TimeControlOf is a game's time control, if it has one.
func TimeControlOf(sg *store.Game) (clock.TimeControl, bool) {
	if sg.Flags["time"] == "" {
		return clock.TimeControl{}, false
	}
	tc, err := clock.ParseTimeControl(sg.Flags["time"])
	return tc, err == nil
}

// StopsOf lists the spans in which sg's clocks stand still: the leave of both its players and
// the pauses of its tournament (one still going stands for all time to come).
func StopsOf(tx *store.Tx, sg *store.Game) ([]clock.Stop, error) {
	var stops []clock.Stop
	for _, p := range sg.Players {
		rec, err := tx.PlayerRecord(p.Address)
		if err != nil {
			return nil, err
		}
		for _, lv := range rec.Leaves {
			if s, ok := LeaveStop(lv); ok {
				stops = append(stops, s)
			}
		}
	}
	if sg.Tournament != 0 {
		t, err := tx.Tournament(sg.Tournament)
		if err != nil {
			return nil, err
		}
		for _, p := range t.Pauses {
			to := p.To
			if to.IsZero() {
				to = p.From.AddDate(openPauseYears, 0, 0)
			}
			stops = append(stops, clock.Stop{From: p.From, To: to})
		}
	}
	return stops, nil
}

// openPauseYears is how far ahead StopsOf ends a pause still going: for all time to come.
// Beyond what a time.Duration holds (292 years), so a span that runs into it is never
// measured (PauseGoing says to leave it alone).
const openPauseYears = 1000

// PauseGoing reports whether stops hold a pause still going (StopsOf): while it lasts no
// clock runs, and nothing falls due, neither a reminder nor a flag.
func PauseGoing(stops []clock.Stop) bool {
	for _, s := range stops {
		if s.To.Sub(s.From) > 200*365*clock.Day { // saturates at 292 years: still more
			return true
		}
	}
	return false
}

// DateLayout is how leave days are written: "2026-11-25".
const DateLayout = "2006-01-02"

// LeaveStop is the span of a leave: from the first day's start to the last day's end, UTC.
func LeaveStop(lv store.Leave) (clock.Stop, bool) {
	from, err1 := time.Parse(DateLayout, lv.From)
	to, err2 := time.Parse(DateLayout, lv.To)
	if err1 != nil || err2 != nil {
		return clock.Stop{}, false
	}
	return clock.Stop{From: from, To: to.AddDate(0, 0, 1)}, true
}
