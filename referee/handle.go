package referee

import (
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/refereed/refereed/lang"

	"github.com/refereed/refereed/chess"
	"github.com/refereed/refereed/parser"
	"github.com/refereed/refereed/referee/command"
	"github.com/refereed/refereed/referee/ifmoves"
	"github.com/refereed/refereed/referee/outbox"
	"github.com/refereed/refereed/referee/play"
	"github.com/refereed/refereed/referee/senders"
	"github.com/refereed/refereed/store"
	"github.com/refereed/refereed/templates"
	"github.com/refereed/refereed/variant"
)

// Handle processes one inbound message in one store transaction. Handling a key that was
// already processed changes nothing. An error means nothing was applied (an internal error,
// to be retried); a player's mistakes are not errors, they are answered.
func (r *Referee) Handle(key store.InboxKey, raw []byte) error {
	m := store.InboundMail{Key: key, Raw: raw}
	defer r.senders().Prejudge(m)()
	return r.DB.UpdateAhead(r.senders().Ahead(m), func(tx *store.Tx) error { return r.inTx(tx, m) })
}

// inTx is one mail's work inside a transaction: done once, then marked processed.
func (r *Referee) inTx(tx *store.Tx, m store.InboundMail) error {
	if done, err := tx.Processed(m.Key); err != nil || done {
		return err
	}
	if r.onHandle != nil {
		r.onHandle(m)
	}
	if err := r.read(tx, m.Key, m.Raw, m.Oversize); err != nil {
		return err
	}
	if err := r.fault("mark"); err != nil {
		return err
	}
	return tx.MarkProcessed(m.Key)
}

// read is the referee's reading of one mail: parse it, find the game and the player, check
// the sender, and answer or apply it.
func (r *Referee) read(tx *store.Tx, key store.InboxKey, raw []byte, oversize int64) error {
	log := r.logger().With("key", key.String())
	if err := r.fault("parse"); err != nil {
		return err
	}
	msg, ok, err := r.senders().Parsed(key) // parsed once, before the transaction
	if !ok {
		msg, err = parser.Parse(raw)
	}
	if err != nil {
		log.Warn("unreadable mail dropped", "err", err)
		return nil
	}
	log = log.With("from", msg.From, "message_id", msg.MessageID)
	token, isBounce := r.senders().TokenOf(msg)
	if why := msg.Automatic(); why != "" || isBounce {
		if why == "" {
			why = "mail to a bounce address"
		}
		return r.recordBounce(tx, log, msg, isBounce, why)
	}
	if strings.EqualFold(msg.From, r.Address) {
		log.Info("own mail ignored")
		return nil
	}
	if err := r.fault("lookup"); err != nil {
		return err
	}
	ref, err := tx.TokenRef(token)
	if err != nil && token == "" {
		return r.answerBare(tx, log, key, raw, msg, 0)
	}
	if err != nil {
		log.Info("mail for no game ignored (a reply token that is not valid)")
		return nil
	}
	if !r.senders().AddressedTo(msg, token, ref) {
		log.Info("mail for no game ignored (a reply address whose game or side is not its token's)")
		return nil
	}
	if ref.Replaced != nil {
		return r.answerReplaced(tx, log, msg, ref)
	}
	if ref.Tournament != 0 {
		return r.Tournaments().Read(tx, key, raw, msg, ref, token, log)
	}
	if ref.Challenge != 0 {
		return r.answerBare(tx, log, key, raw, msg, ref.Challenge)
	}
	a, err := r.openGame(tx, ref.Game)
	if err != nil {
		return err
	}
	sg, v := a.Stored(), a.Variant()
	side := chess.Color(ref.Side)
	player := sg.Players[side]
	if !strings.EqualFold(msg.From, player.Address) {
		log.Warn("sender is not the registered player: refused", "game", sg.ID, "registered", player.Address)
		if ok, err := r.allowRefusal(tx, player.Address, limitForged); !ok || err != nil {
			return err
		}
		_, say := r.speaker(tx, sg, side)
		from := msg.From
		if from == "" {
			from = say("unreadable-from", nil)
		}
		return r.enqueue(tx, sg, v, outbox.Letter{Side: side, Kind: "refusal", What: say("subject/refused-sender", nil), Paras: []string{
			say("forged-sender", templates.Args{"Game": sg.ID, "Variant": v.Name, "Side": side, "From": from}),
			say("send-from-registered", templates.Args{"Address": player.Address}),
		}})
	}
	if ok, why := r.senders().Authentic(key, sg, raw, msg.From); !ok {
		log.Warn("sender not confirmed by the mail system: refused", "game", sg.ID, "policy", senders.Policy(sg), "why", why)
		if ok, err := r.allowRefusal(tx, player.Address, limitForged); !ok || err != nil {
			return err
		}
		_, say := r.speaker(tx, sg, side)
		return r.enqueue(tx, sg, v, outbox.Letter{Side: side, Kind: "refusal", What: say("subject/refused-sender", nil), Paras: []string{
			say("unconfirmed-sender", templates.Args{"Game": sg.ID, "Variant": v.Name, "Side": side, "Why": why}),
			say("send-directly", templates.Args{"Address": player.Address}),
		}})
	}
	if err := r.fault("replay"); err != nil {
		return err
	}
	if seen, err := tx.SeenMessageID(sg.ID, int(side), msg.MessageID); err != nil {
		return err
	} else if seen {
		log.Info("mail already applied (same Message-ID): ignored", "game", sg.ID)
		return nil
	}
	if oversize > 0 {
		log.Info("oversize mail answered", "game", sg.ID, "size", oversize)
		ok, last, err := r.allowOwnRefusal(tx, player.Address, sg.ID)
		if !ok || err != nil {
			return err
		}
		_, say := r.speaker(tx, sg, side)
		paras := []string{say("too-large", templates.Args{"MB": float64(oversize) / (1 << 20)})}
		if last {
			paras = append(paras, say("refusal-limit-last", templates.Args{"Limit": OwnRefusalLimit}))
		}
		return r.enqueue(tx, sg, v, outbox.Letter{Side: side, Kind: "reply", Answers: msg, What: say("subject/too-large", nil), Paras: paras})
	}
	return r.apply(key, msg, a, side)
}

// RefusalLimit is how many refusal-only answers (refused lines, mails with no command, oversize
// mail, refused senders) one address gets per RefusalWindow: enough for a person, and a stop to
// a loop with an auto-responder that does not say it is one. Answers to accepted commands are
// never limited.
const (
	RefusalLimit  = 10
	RefusalWindow = time.Hour
)

// What a refusal-only answer is about, each counted on its own: mail that proved to be the
// player's (his token and his From address), mail in his name that was not his, and mail to
// the bare address. A stranger who forges a player's address can use up only the answers to
// forgeries, never those the player's own mistakes get.
const (
	limitOwn    = "own"
	limitForged = "forged"
	limitNoGame = "nogame"
)

// OwnRefusalLimit is how many refusal-only answers a player gets per RefusalWindow for his
// own mail (his token and his From address) in one game: far more than a person makes, even
// one who errs all evening, and still a stop to a loop. The last answer before the limit says
// so (refusal-limit-last): a player is never left without an answer he was not told of.
const OwnRefusalLimit = 30

// allowOwnRefusal counts a refusal-only answer to a player's own mail in game; ok false
// means: do not send it; last means: it is the last one before the limit, and says so.
func (r *Referee) allowOwnRefusal(tx *store.Tx, address string, game uint64) (ok, last bool, err error) {
	return r.allowTold(tx, fmt.Sprintf("%s#%s#g%d", strings.ToLower(address), limitOwn, game), OwnRefusalLimit)
}

// allowTold counts a refusal-only answer under key, limit of them per RefusalWindow; last
// says that this answer is the last one, and must say so.
func (r *Referee) allowTold(tx *store.Tx, key string, limit int) (ok, last bool, err error) {
	if ok, err := tx.Allow(key, limit-1, RefusalWindow); err != nil || ok {
		return ok, false, err
	}
	if ok, err = tx.Allow(key+"#last", 1, RefusalWindow); err == nil && !ok {
		r.logger().Warn("refusal not answered: over the limit, of which the sender was told", "key", key)
	}
	return ok, ok, err
}

// allowRefusal counts a refusal-only answer to address about what; false means: do not send
// it.
func (r *Referee) allowRefusal(tx *store.Tx, address, what string) (bool, error) {
	ok, err := tx.Allow(strings.ToLower(address)+"#"+what, RefusalLimit, RefusalWindow)
	if err == nil && !ok {
		r.logger().Warn("refusal not answered: rate limit", "to", address, "about", what)
	}
	return ok, err
}

// Bounds on the work one mail can cause.
const (
	// MaxCommands is the most command lines read from one mail: far more than a player ever
	// writes (a series of moves is one line).
	MaxCommands = command.MaxLines
	// QueryLimit private queries (HELP, BOARD, HISTORY, a game's own) per player per
	// QueryWindow are answered: each costs a replay or a long mail, and they change nothing.
	QueryLimit  = 30
	QueryWindow = time.Hour
)

func (r *Referee) queryLimit() int {
	if r.QueryLimit > 0 {
		return r.QueryLimit
	}
	return QueryLimit
}

// apply runs the command lines of msg through the game and queues the mails.
func (r *Referee) apply(key store.InboxKey, msg *parser.Message, a *play.Game, side chess.Color) error {
	tx, sg, v, g := a.Tx(), a.Stored(), a.Variant(), a.Live()
	out := play.Outcome{Sender: &side}
	out.SetPrefs(r.prefsOf(tx, sg))
	logBefore := len(g.Log())
	lines := parser.Read(msg.Body, outbox.SentSet(sg.Players[side].Sent))
	if sp, ok := g.(variant.Splitter); ok {
		lines = split(sp, lines)
	}
	if len(lines) == 0 {
		out.NoCommand = true
		if msg.BodyError != "" {
			out.Tell(side, "no-command-unreadable", templates.Args{"Why": msg.BodyError})
		} else {
			out.Tell(side, "no-command", nil)
		}
	}
	if err := r.fault("submit"); err != nil {
		return err
	}
	// What one mail can make the referee do is bounded: MaxCommands lines, and QueryLimit
	// private queries per player per hour. The rest comes back unread, as after a refusal.
	stop := func(i int, why string) {
		out.Paras[side] = append(out.Paras[side], why)
		out.Refused = lines[i].N // an answer that only refuses is rate-limited
		for _, rest := range lines[i:] {
			out.Quoted = append(out.Quoted, rest.Text)
		}
	}
	once := map[string]bool{} // the commands a mail holds once that it held (LEAVE: each is told to every opponent)
	type aside struct {
		i, first, last int // the index in lines of its last line, its first and last line numbers
		text           string
	}
	var asides []aside // runs of lines not read as greetings or sign-offs
	notRead := func(i, n int, written string) {
		if k := len(asides); k > 0 && asides[k-1].i == i-1 {
			asides[k-1].i, asides[k-1].last = i, n
			asides[k-1].text += " " + written
		} else {
			asides = append(asides, aside{i: i, first: n, text: written})
		}
	}
	// His language's command words and his piece letters are read as the English ones.
	read := func(text string) string { return readMoves(out.Pieces[side], command.Translate(out.Lang[side], text)) }
	wasOver := g.Outcome().Over()
	joined := 0           // the lines after this one that its command took
	movesStopped := 0     // the line after which the game reads no more of his moves (0: none)
	var unplayed []string // the game's lines after it: quoted back, not tried
	for i, line := range lines {
		if joined > 0 {
			joined--
			continue
		}
		if movesStopped > 0 && i < MaxCommands {
			// The game stopped reading his moves (a Kriegspiel attempt was played, KR-D9):
			// what is the game's is not tried; the referee's commands (RESIGN, DRAW OFFER,
			// a query) are still read, as they would be before the move.
			if c, _ := commandTable.Find(command.Player, read(line.Text)); c == nil {
				if line.Aside {
					notRead(i, line.N, line.Text) // a sign-off: not a move
				} else {
					unplayed = append(unplayed, line.Text)
				}
				continue
			}
		}
		if i == MaxCommands {
			stop(i, out.Say(side, "too-many-lines", templates.Args{"Max": MaxCommands}))
			break
		}
		written := line.Text // what he wrote, which his answer quotes
		line.Text = read(line.Text)
		// A command a game reads over several lines is one command: checked and applied whole
		// (an A-move and its C-move, a series written one move a line).
		if j, ok := g.(variant.Joiner); ok {
			for k := i + 1; k < len(lines) && k < MaxCommands && !lines[k].Aside; k++ {
				text, ok := j.Join(side, line.Text, read(lines[k].Text))
				if !ok {
					break
				}
				line.Text, written = text, written+" "+lines[k].Text
				joined++
			}
		}
		after := i + 1 + joined // the first line after this command
		if commandTable.IsQuery(v, line.Text) {
			ok, err := tx.Allow(strings.ToLower(sg.Players[side].Address)+"#queries", r.queryLimit(), QueryWindow)
			if err != nil {
				return err
			}
			if !ok {
				r.logger().Warn("queries over the limit", "game", sg.ID, "side", side)
				stop(i, out.Say(side, "too-many-queries", templates.Args{"N": line.N, "Line": clip(written), "Limit": r.queryLimit()}))
				break
			}
		}
		before := len(g.Log())
		var notices []variant.Notice
		var warns []chess.Warning
		var err error
		// Moves in his piece letters are read as the game reads moves (SET PIECES).
		c, call := commandTable.Find(command.Player, line.Text)
		if c != nil && c.OneAMail != "" && once[c.Word] {
			err = variant.Refuse(c.OneAMail, nil)
		} else if sg.Over() && !g.Outcome().Over() && !commandTable.IsQuery(v, line.Text) {
			// Ended outside its rules before withdrawals were logged in the game: its log
			// does not say so, the store does.
			err = variant.Reject("the game is over (%s)", sg.Result)
		} else {
			var res command.Result
			res, err = r.run(a, side, c, call, line.Text, key.String())
			notices, warns = res.Notices, res.Warnings
			if c != nil && c.OneAMail != "" {
				once[c.Word] = true
			}
			if err == nil && res.Reloaded != nil {
				a = res.Reloaded
				sg, g = a.Stored(), a.Live()
				before = len(g.Log())
			}
			if err == nil && res.Prefs {
				// What comes after it in this mail is said as he now asks.
				out.SetPrefs(r.prefsOf(tx, sg))
			}
		}
		if err != nil {
			if !variant.IsRejection(err) {
				return fmt.Errorf("referee: game %d: line %d: %w", sg.ID, line.N, err)
			}
			if line.Aside {
				// A greeting or a sign-off, as the parser took it: said to be not read, not
				// refused, and what comes after it is still read.
				notRead(i, line.N, written)
				continue
			}
			out.Tell(side, "line-refused", templates.Args{"N": line.N, "Line": clip(written), "Why": variant.WhyIn(err, out.Lang[side]), "First": i == 0, "Hint": !g.Outcome().Over()})
			out.Refused = line.N
			for _, rest := range lines[i:] {
				if g.Outcome().Over() {
					break // nothing can be sent again to a finished game: nothing is quoted back
				}
				out.Quoted = append(out.Quoted, rest.Text)
			}
			if out.Show[side] < variant.ShowView {
				out.Show[side] = variant.ShowView
			}
			break
		}
		for _, w := range warns {
			if w.Code == chess.WarnMateMark {
				continue // the game is over: "write #" helps nobody
			}
			out.Tell(side, "line-note", templates.Args{"N": line.N, "Line": clip(written), "Note": w.Text})
		}
		stopped := false
		for _, n := range notices {
			out.Add(n)
			stopped = stopped || n.Stop
		}
		if err := r.fault("log"); err != nil {
			return err
		}
		// A move may be answered at once by a conditional sequence of the opponent's.
		fired := false
		if logged := len(g.Log()); logged > before {
			if err := ifmoves.Fire(a, &out); err != nil {
				return err
			}
			fired = len(g.Log()) > logged
		}
		if g.Outcome().Over() && !wasOver {
			// This line ended the game: nothing after it can be played.
			if rest := lines[after:]; len(rest) > 0 {
				out.Tell(side, "over-rest-unread", nil)
			}
			break
		}
		if fired && after < len(lines) {
			// The rest was written before the reply was known: it comes back unread.
			out.Tell(side, "if-rest-unread", templates.Args{"N": line.N})
			for _, rest := range lines[after:] {
				out.Quoted = append(out.Quoted, rest.Text)
			}
			break
		}
		if stopped && movesStopped == 0 && after < len(lines) {
			// The game reads no more of his moves here (its notice said why).
			movesStopped = line.N
		}
	}
	if len(unplayed) > 0 && !g.Outcome().Over() { // (nothing can be sent again to a finished game)
		out.Tell(side, "stopped-rest-unread", templates.Args{"N": movesStopped})
		out.Quoted = append(unplayed, out.Quoted...)
	}
	for _, as := range asides {
		out.Tell(side, "aside-unread", templates.Args{"N": as.first, "Last": as.last, "Line": clip(as.text)})
	}
	endedNow, err := a.Settle("")
	if err != nil {
		return err
	}
	if err := r.fault("render"); err != nil {
		return err
	}
	if len(g.Log()) == logBefore && len(out.Paras[side.Other()]) == 0 && (out.Refused > 0 || len(lines) == 0) {
		// Nothing was done and only the sender would hear of it: a refusal-only answer.
		if ok, last, err := r.allowOwnRefusal(tx, sg.Players[side].Address, sg.ID); err != nil {
			return err
		} else if !ok {
			return nil
		} else if last {
			out.Tell(side, "refusal-limit-last", templates.Args{"Limit": OwnRefusalLimit})
		}
	}
	if err := play.Finish(r.out(), a, &out, msg, endedNow, "update", r.tournamentGameOver); err != nil {
		return err
	}
	return r.fault("enqueue")
}

// readMoves is line with each of its words that is a move in t's piece letters (SET PIECES)
// in the letters the games read (lang.ReadMove); the rest, and every line of a player who
// writes English letters, as it is.
func readMoves(t lang.Tag, line string) string {
	if !t.Known() || t == lang.EN {
		return line
	}
	var sb strings.Builder
	start := -1
	for i, r := range line {
		if r == ',' || r == ';' || r == ' ' || r == '\t' {
			if start >= 0 {
				sb.WriteString(lang.ReadMove(t, line[start:i]))
				start = -1
			}
			sb.WriteRune(r)
		} else if start < 0 {
			start = i
		}
	}
	if start >= 0 {
		sb.WriteString(lang.ReadMove(t, line[start:]))
	}
	return sb.String()
}

// run runs one command line of side's in game a: c, a command of the table's (call: its
// words), or the game's own (c nil, or a row the game reads: RESIGN, DRAW).
func (r *Referee) run(a *play.Game, side chess.Color, c *cmd, call *command.Call, line, source string) (command.Result, error) {
	switch {
	case c != nil && c.Lists:
		t := r.prefsOf(a.Tx(), a.Stored())[side].Lang
		return ask(&command.Call{Side: side}, "help", commandTable.PlayerHelp(a.Variant(), a.Live(), a.Stored().Tournament != 0, t), 0), nil
	case c != nil && c.Handle != nil:
		call.Game, call.Side, call.Source = a, side, source
		return c.Handle(r, call)
	}
	cmd, warns, err := a.Live().Resolve(side, line)
	if err != nil {
		return command.Result{Warnings: warns}, err
	}
	notices, err := a.Submit(cmd, source) // played and logged
	return command.Result{Notices: notices, Warnings: warns}, err
}

// recordBounce notes a delivery failure against the player whose bounce address it came
// to; nothing is ever sent in answer to machine mail.
func (r *Referee) recordBounce(tx *store.Tx, log interface{ Info(string, ...any) }, msg *parser.Message, isBounce bool, why string) error {
	log.Info("machine mail not answered", "why", why)
	if !isBounce && !msg.Report {
		return nil
	}
	sg, side, ok := r.senders().Bounced(tx, msg)
	if !ok {
		return nil
	}
	return play.NoteBounce(tx, sg, side, firstLine(msg.Subject))
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return clip(s)
}

func clip(s string) string { return command.Clip(s) }

// split gives each command of a line that holds several (variant.Splitter) as a line of its
// own, under the line's number; no more than MaxCommands lines in all.
func split(sp variant.Splitter, lines []parser.Line) []parser.Line {
	var out []parser.Line
	for i, l := range lines {
		if len(out) > MaxCommands {
			return append(out, lines[i:]...) // (not read: the reading stops at MaxCommands)
		}
		parts := sp.Split(l.Text)
		if len(parts) <= 1 {
			out = append(out, l)
			continue
		}
		if len(parts) > MaxCommands+1 {
			parts = parts[:MaxCommands+1] // (past MaxCommands nothing is read)
		}
		for _, p := range parts {
			out = append(out, parser.Line{N: l.N, Text: p})
		}
	}
	return out
}

// answerReplaced answers a player who was replaced and still writes to his game: who took
// over and when, and that nothing in it was done. Only his own address is answered (his
// registered address when he played), at most as often as refusals are.
func (r *Referee) answerReplaced(tx *store.Tx, log *slog.Logger, msg *parser.Message, ref store.GameRef) error {
	rp := ref.Replaced
	if !strings.EqualFold(msg.From, rp.Old) {
		log.Info("mail for a replaced player's game from another address ignored", "game", ref.Game)
		return nil
	}
	log.Info("mail from a replaced player answered", "game", ref.Game, "replaced_by", rp.New)
	if ok, err := r.allowRefusal(tx, rp.Old, limitOwn); !ok || err != nil {
		return err
	}
	name := ""
	if sg, err := tx.Game(ref.Game); err == nil && sg.Tournament != 0 {
		if t, err := tx.Tournament(sg.Tournament); err == nil {
			name = t.Name
		}
	}
	args := templates.Args{"Game": ref.Game, "New": rp.New, "When": rp.At.UTC().Format("2006-01-02 15:04 UTC"), "Name": name}
	say := func(kind string, args templates.Args) string { return r.sayTo(tx, rp.Old, kind, args) }
	return r.enqueueNotice(tx, rp.Old, say("subject/replaced", args), []string{say("replaced-mail", args)}, say("footer-no-game", nil), msg)
}
