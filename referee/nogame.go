package referee

import (
	"fmt"
	"log/slog"
	"slices"
	"strings"

	"github.com/refereed/refereed/chess"
	"github.com/refereed/refereed/parser"
	"github.com/refereed/refereed/store"
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
	games, err := tx.Games()
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
			if sg.Status == "over" {
				over = append(over, fmt.Sprintf("- #%d %s against %s: over, %s (%s).", sg.ID, variantName(sg.Variant), opp, sg.Result, sg.Reason))
				continue
			}
			turn := ""
			if _, _, g, err := Load(tx, sg.ID); err != nil {
				return err
			} else if slices.Contains(g.ToAct(), s) {
				turn = " It is your move."
			}
			active = append(active, fmt.Sprintf("- #%d %s: you play %s against %s.%s\n  Send your commands to %s", sg.ID, variantName(sg.Variant), s, opp, turn, r.replyAddress(sg.ID, s, p.Token)))
		}
	}
	if address == "" {
		log.Info("mail for no game from an unknown sender: not answered")
		return nil
	}
	log.Info("mail for no game from a player: his games listed", "games", len(active)+len(over))
	if ok, err := r.allowRefusal(tx, address); !ok || err != nil {
		return err
	}
	paras := []string{fmt.Sprintf("Your mail to %s names no game, so nothing in it was done. Every game has its own address, which carries your secret reply token: reply to any mail of the game, or write to the address given below. Keep these addresses to yourself.", r.Address)}
	if len(active) == 0 {
		paras = append(paras, "You have no game in progress.")
	} else {
		if len(active) > maxListed {
			active = append(active[:maxListed], fmt.Sprintf("- and %d more.", len(active)-maxListed))
		}
		paras = append(paras, "Your games in progress:\n"+strings.Join(active, "\n"))
		paras = append(paras, "HELP sent to a game's address lists the commands of that game.")
	}
	if len(over) > 0 {
		if len(over) > maxListed {
			over = append(over[:maxListed], fmt.Sprintf("- and %d more.", len(over)-maxListed))
		}
		paras = append(paras, "Your finished games:\n"+strings.Join(over, "\n"))
	}
	return r.enqueuePlain(tx, address, "your games", paras)
}

// variantName is the name of a stored variant key for people, the key itself if unknown.
func variantName(key string) string {
	if v, err := variant.Lookup(key); err == nil {
		return v.Name
	}
	return key
}
