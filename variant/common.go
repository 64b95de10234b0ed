package variant

import (
	"strings"

	"github.com/refereed/refereed/chess"
)

// Common is the part of a game every variant shares: the log, the outcome, and the common
// commands of rules.md 0.4 (resign, draw offer/accept/decline). Variants embed it and call
// Accept for each command they apply.
type Common struct {
	log       []Command
	outcome   Outcome
	drawOffer int8 // -1 none, else the Side that offered
	quiet     bool
	// plays counts the commands that are not about a draw; offered is, for each side, 1 +
	// plays when he last offered one: one offer a turn, so that offering and withdrawing
	// cannot flood the opponent's mailbox.
	plays   int
	offered [2]int
}

// SetQuiet turns notice texts off (replay). Final.
func (c *Common) SetQuiet(on bool) { c.quiet = on }

// Quiet reports whether notices are off: a variant skips building their texts.
func (c *Common) Quiet() bool { return c.quiet }

// NewCommon returns a Common for a game that has just begun.
func NewCommon() Common {
	return Common{outcome: Outcome{Result: "*", Termination: "unterminated"}, drawOffer: -1}
}

// Outcome is how the game stands. Final.
func (c *Common) Outcome() Outcome { return c.outcome }

// Log is the accepted commands so far. Final.
func (c *Common) Log() []Command { return c.log }

// Reserve makes room in the log for n more commands.
func (c *Common) Reserve(n int) {
	if cap(c.log)-len(c.log) < n {
		c.log = append(make([]Command, 0, len(c.log)+n), c.log...)
	}
}

// Accept appends an applied command to the log.
func (c *Common) Accept(cmd Command) {
	c.log = append(c.log, cmd)
	switch cmd.Text {
	case CmdDrawOffer, CmdDrawAccept, CmdDrawDecline, CmdDrawWithdraw:
	default:
		c.plays++
	}
}

// End ends the game. Result is "1-0", "0-1" or "1/2-1/2" (Draw).
func (c *Common) End(result, termination, reason string) {
	c.outcome = Outcome{Result: result, Termination: termination, Reason: reason}
	c.drawOffer = -1
}

// WinFor is the result string of a win by s.
func WinFor(s Side) string {
	if s == chess.White {
		return "1-0"
	}
	return "0-1"
}

// Canonical texts of the common commands.
const (
	CmdResign      = "resign"
	CmdDrawOffer   = "draw offer"
	CmdDrawAccept  = "draw accept"
	CmdDrawDecline = "draw decline"
	// CmdDrawWithdraw takes back one's own standing offer (an offer stands across mails
	// until it is accepted, declined or withdrawn, as on correspondence servers).
	CmdDrawWithdraw = "draw withdraw"
	// CmdDrawAgreed ends a game drawn by agreement in a record ("1/2-1/2" with the position
	// undecided). Players never send it: by mail a draw is an offer and an acceptance.
	CmdDrawAgreed = "draw agreed"
	// CmdForfeit is logged by the referee when a player let a deadline pass twice (rules.md
	// 0.4a). Players never send it.
	CmdForfeit = "forfeit"
	// CmdTimeForfeit is logged by the referee when a player's clock ran out (a game with a
	// time control). Players never send it.
	CmdTimeForfeit = "time forfeit"
	// CmdAbandon is logged by the referee when a player withdraws from the tournament the
	// game is part of: he loses the game (the tournament's rule decides how it counts).
	// Players never send it.
	CmdAbandon = "abandon"
	// CmdAdjudicate, followed by a result ("adjudicate 1-0"), is logged when the organizer
	// of a game's tournament decides it. Players never send it.
	CmdAdjudicate = "adjudicate"
)

// Adjudication is the command that ends a game with result by the organizer's decision.
func Adjudication(result string) string { return CmdAdjudicate + " " + result }

// ResolveCommon reads the common commands; ok is false for anything else.
func ResolveCommon(by Side, text string) (cmd Command, ok bool) {
	if len(text) < 4 || len(text) > 20 {
		return Command{}, false // every common command is 4 to 20 bytes
	}
	t := text
	if strings.ContainsAny(t, " \t") {
		t = strings.Join(strings.Fields(t), " ")
	}
	if t == "" {
		return Command{}, false
	}
	switch t[0] | 0x20 { // in lower case, every command starts with one of these letters
	case 'a', 'd', 'i', 'o', 'r', 'w':
	default:
		return Command{}, false // a move, not lowered for nothing
	}
	t = strings.ToLower(t)
	switch t {
	case "resign", "resigns", "i resign":
		return Command{By: by, Text: CmdResign}, true
	case "draw offer", "offer draw", "draw?", "draw":
		return Command{By: by, Text: CmdDrawOffer}, true
	case "draw accept", "accept draw", "accept":
		return Command{By: by, Text: CmdDrawAccept}, true
	case "draw decline", "decline draw", "decline":
		return Command{By: by, Text: CmdDrawDecline}, true
	case "draw withdraw", "withdraw draw", "withdraw draw offer", "withdraw offer":
		return Command{By: by, Text: CmdDrawWithdraw}, true
	}
	return Command{}, false
}

// SubmitCommon applies a common command; handled is false when cmd is not one.
func (c *Common) SubmitCommon(cmd Command) (notices []Notice, handled bool, err error) {
	adjudged, isAdjudication := strings.CutPrefix(cmd.Text, CmdAdjudicate+" ")
	switch {
	case isAdjudication:
		if adjudged != "1-0" && adjudged != "0-1" && adjudged != Draw {
			return nil, true, Refuse("common/adjudication-result", map[string]any{"Result": adjudged})
		}
	case cmd.Text == CmdResign, cmd.Text == CmdDrawOffer, cmd.Text == CmdDrawAccept, cmd.Text == CmdDrawDecline,
		cmd.Text == CmdDrawWithdraw, cmd.Text == CmdDrawAgreed, cmd.Text == CmdForfeit, cmd.Text == CmdTimeForfeit, cmd.Text == CmdAbandon:
	default:
		return nil, false, nil
	}
	if c.outcome.Over() {
		return nil, true, Refuse("common/over-nothing-more", map[string]any{"Result": c.outcome.Result})
	}
	by := cmd.By
	switch cmd.Text {
	case CmdResign:
		c.End(WinFor(by.Other()), "resignation", by.String()+" resigned")
		notices = append(notices, gameOver("common/resigned", map[string]any{"By": by, "Other": by.Other()}))
	case CmdDrawOffer:
		if c.drawOffer == int8(by) {
			return nil, true, Refuse("common/draw-offered-already", nil)
		}
		if c.offered[by&1] == c.plays+1 && c.drawOffer != int8(by.Other()) {
			return nil, true, Refuse("common/draw-offer-once", nil)
		}
		if c.drawOffer == int8(by.Other()) {
			// Both offered: that is agreement.
			c.End(Draw, "draw", "draw agreed")
			notices = append(notices, gameOver("common/draw-agreed", nil))
			break
		}
		c.drawOffer = int8(by)
		c.offered[by&1] = c.plays + 1
		// Only the opponent is asked to answer: the offerer cannot accept his own offer.
		notices = append(notices,
			Notice{To: To(by), Kind: "draw-offer", Words: "common/draw-offer", Args: map[string]any{"Me": true, "By": by, "Other": by.Other()}},
			Notice{To: To(by.Other()), Kind: "draw-offer", Words: "common/draw-offer", Args: map[string]any{"Me": false, "By": by, "Other": by.Other()}})
	case CmdDrawAccept:
		if c.drawOffer != int8(by.Other()) {
			return nil, true, Refuse("common/no-draw-to-accept", nil)
		}
		c.End(Draw, "draw", "draw agreed")
		notices = append(notices, gameOver("common/draw-agreed", nil))
	case CmdDrawDecline:
		if c.drawOffer != int8(by.Other()) {
			return nil, true, Refuse("common/no-draw-to-decline", nil)
		}
		c.drawOffer = -1
		notices = append(notices, Notice{To: ToBoth, Kind: "draw-declined", Words: "common/draw-declined", Args: map[string]any{"By": by}})
	case CmdDrawWithdraw:
		if c.drawOffer != int8(by) {
			return nil, true, Refuse("common/no-draw-to-withdraw", nil)
		}
		c.drawOffer = -1
		notices = append(notices, Notice{To: ToBoth, Kind: "draw-withdrawn", Words: "common/draw-withdrawn", Args: map[string]any{"By": by}, Supersedes: "draw-offer"})
	case CmdDrawAgreed:
		c.End(Draw, "draw", "draw agreed")
	case CmdForfeit:
		c.End(WinFor(by.Other()), "forfeit", by.String()+" let the deadline pass twice and forfeits")
		notices = append(notices, gameOver("common/forfeit", map[string]any{"By": by, "Other": by.Other()}))
	case CmdTimeForfeit:
		c.End(WinFor(by.Other()), "time forfeit", by.String()+" lost on time")
		notices = append(notices, gameOver("common/time-forfeit", map[string]any{"By": by, "Other": by.Other()}))
	case CmdAbandon:
		c.End(WinFor(by.Other()), "abandoned", by.String()+" withdrew from the tournament")
	default: // an adjudication
		c.End(adjudged, "adjudication", "adjudicated by the organizer")
		notices = append(notices, gameOver("common/adjudicated", map[string]any{"Result": adjudged}))
	}
	c.Accept(cmd)
	return notices, true, nil
}
