package referee

import (
	"log/slog"
	"slices"
	"strings"

	"github.com/refereed/refereed/archive"
	"github.com/refereed/refereed/chess"
	"github.com/refereed/refereed/parser"
	"github.com/refereed/refereed/store"
	"github.com/refereed/refereed/templates"
	"github.com/refereed/refereed/variant"
)

// maxListed is the most games one answer to a mail without a game lists.
const maxListed = 50

// answerNoGame answers a mail that names no game (no reply token: sent to the referee's bare
// address, the token lost). A registered player gets, at his
// registered address, the list of his games with the address that plays each: a lost token
// is recoverable, and HELP there is answered. Anyone else gets nothing (no backscatter).
// Answers are rate-limited like refusals.
func (r *Referee) answerNoGame(tx *store.Tx, log *slog.Logger, msg *parser.Message) error {
	from := strings.ToLower(msg.From)
	// By index: a stranger's mail reads no game at all, a player's only his own.
	games, err := tx.GamesOf(from)
	if err != nil {
		return err
	}
	var active, over []string
	address := ""
	for i := len(games) - 1; i >= 0; i-- { // newest first
		sg := &games[i]
		for side, p := range sg.Players {
			if p.Address != from {
				continue
			}
			address = p.Address
			s := chess.Color(side)
			opp := sg.Players[s.Other()].Address
			if sg.Over() {
				over = append(over, say("game-finished", templates.Args{"Game": sg.ID, "Variant": variantName(sg.Variant), "Opponent": opp, "Result": sg.Result, "Reason": sg.Reason}))
				continue
			}
			l, err := archive.Load(tx, sg.ID)
			if err != nil {
				return err
			}
			g := l.Live
			active = append(active, say("game-in-progress", templates.Args{"Game": sg.ID, "Variant": variantName(sg.Variant), "Side": s, "Opponent": opp,
				"YourMove": slices.Contains(g.ToAct(), s), "Address": r.replyAddress(sg.ID, s, p.Token)}))
		}
	}
	if address == "" {
		log.Info("mail for no game from an unknown sender: not answered")
		return nil
	}
	log.Info("mail for no game from a player: his games listed", "games", len(active)+len(over))
	if ok, err := r.allowRefusal(tx, address, limitNoGame); !ok || err != nil {
		return err
	}
	paras := []string{say("no-game", templates.Args{"Referee": r.Address})}
	if len(active) == 0 {
		paras = append(paras, say("no-game-in-progress", nil))
	} else {
		if len(active) > maxListed {
			active = append(active[:maxListed], say("and-more", templates.Args{"N": len(active) - maxListed}))
		}
		paras = append(paras, say("games-in-progress", nil)+"\n"+strings.Join(active, "\n"))
		paras = append(paras, say("help-per-game", nil))
	}
	if len(over) > 0 {
		if len(over) > maxListed {
			over = append(over[:maxListed], say("and-more", templates.Args{"N": len(over) - maxListed}))
		}
		paras = append(paras, say("finished-games", nil)+"\n"+strings.Join(over, "\n"))
	}
	return r.enqueuePlain(tx, address, say("subject/your-games", nil), paras, msg)
}

// variantName is the name of a stored variant key for people, the key itself if unknown.
func variantName(key string) string {
	if v, err := variant.Lookup(key); err == nil {
		return v.Name
	}
	return key
}
