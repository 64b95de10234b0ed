package referee

import (
	"fmt"
	"io"
	"strings"

	"github.com/refereed/refereed/record"
	"github.com/refereed/refereed/store"
)

// Export writes game id as PGN: variant tags, the movetext in the variant's notation, and,
// once the game is over, its whole log with times in a comment (nothing is secret then,
// rules.md 0.4b). An unfinished game's record shows hidden moves: it is for the organizer.
func Export(tx *store.Tx, id uint64, w io.Writer) error {
	sg, v, g, err := Load(tx, id)
	if err != nil {
		return err
	}
	tags := []record.Tag{
		{Name: "Event", Value: fmt.Sprintf("refereed game #%d", sg.ID)},
		{Name: "Site", Value: "refereed"},
		{Name: "Date", Value: sg.Created.UTC().Format("2006.01.02")},
		{Name: "White", Value: sg.Players[0].Address},
		{Name: "Black", Value: sg.Players[1].Address},
		{Name: "Variant", Value: v.Name},
	}
	if sg.FEN != "" {
		tags = append(tags, record.Tag{Name: "SetUp", Value: "1"}, record.Tag{Name: "FEN", Value: sg.FEN})
	}
	out := g.Outcome()
	if out.Over() {
		tags = append(tags, record.Tag{Name: "Termination", Value: out.Termination})
	} else {
		tags = append(tags, record.Tag{Name: "Annotator", Value: "refereed: game in progress; this record shows moves still hidden from the players"})
	}
	movetext := v.WriteMovetext(g)
	if out.Over() {
		events, err := tx.Events(id)
		if err != nil {
			return err
		}
		var sb strings.Builder
		sb.WriteString("{refereed log:")
		for _, e := range events {
			fmt.Fprintf(&sb, "\n%s %s: %s", e.At.UTC().Format("2006-01-02T15:04:05Z"), []string{"White", "Black"}[e.Side], strings.ReplaceAll(e.Text, "}", ")"))
		}
		sb.WriteString("}\n")
		movetext = sb.String() + movetext
	}
	return record.Write(w, tags, movetext, out.Result)
}
