// Package web is refereed's read-only web archive: the games (filtered by variant, player,
// tournament and status, in pages of at most 100), one game (players, variant, result, the
// move list in the literature's notation, a board to step through, the PGN), the
// tournaments (crosstable, standings, games), a player's games and ratings, and the rating
// lists (/ratings). It reads the store in
// read-only View transactions only and writes nothing; pages are built on the server with
// html/template and one embedded stylesheet, and need no JavaScript.
//
// What is shown (rules.md 0.4b): of a finished game everything (the whole log, the referee's
// view at every step, the PGN). Of a game in progress only what both players already know,
// as each game declares it (variant.Variant.InProgress): the position, the moves, whose turn
// (and, with a time control, the clocks: a running clock says whose turn it is), the turn's
// number, the game's public view (variant.PublicViewer), each only where the game says so;
// a game that declares nothing shows its players and status only. This package names no
// game.
//
// Players are shown by the local part of their address; addresses, tokens and message ids
// never appear, and neither does any player's private view of a game in progress.
//
// A REPLACE does not rewrite history (issue 33): a game's page says who played a side up to
// which move, its moves and PGN carry a comment there, and the player replaced keeps the game
// on his page, unscored (its result counts for the player who finished it).
//
// The archive rebuilds games, sections and PGN with package archive (Load, Section, Export),
// so that it, the daemon and `refereed export` agree.
package web

import (
	"bytes"
	"crypto/sha256"
	_ "embed"
	"encoding/base32"
	"errors"
	"fmt"
	"github.com/refereed/refereed/templates"
	"log/slog"
	"math"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/refereed/refereed/archive"
	"github.com/refereed/refereed/chess"
	"github.com/refereed/refereed/store"
	"github.com/refereed/refereed/variant"
)

// PageSize is the most games one page lists.
const PageSize = 100

//go:embed style.css
var styleCSS []byte

// Handler serves the archive of one store.
type Handler struct {
	db  archive.Reader
	Log *slog.Logger // errors; nil: slog.Default()
	// Now is the time a running clock is read at (a game's page); nil: time.Now.
	Now func() time.Time

	keyOnce sync.Once
	linkKey []byte // signs the links to pages read from a point (links.go)
}

func (h *Handler) now() time.Time {
	if h.Now != nil {
		return h.Now()
	}
	return time.Now()
}

// New returns the archive of db. It only ever opens read-only transactions.
func New(db archive.Reader) *Handler { return &Handler{db: db} }

// Server wraps h in an http.Server with timeouts, listening on addr.
func Server(addr string, h http.Handler) *http.Server {
	return &http.Server{
		Addr:              addr,
		Handler:           h,
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       10 * time.Second,
		WriteTimeout:      30 * time.Second,
		IdleTimeout:       60 * time.Second,
		MaxHeaderBytes:    16 << 10,
	}
}

// errNotFound answers 404.
var errNotFound = errors.New("not found")

func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	hd := w.Header()
	hd.Set("Content-Security-Policy", "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'")
	hd.Set("X-Content-Type-Options", "nosniff")
	hd.Set("Referrer-Policy", "no-referrer")
	hd.Set("X-Frame-Options", "DENY")
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		hd.Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	defer func() {
		if v := recover(); v != nil {
			h.logger().Error("web: panic", "path", r.URL.Path, "panic", v)
			http.Error(w, "internal error", http.StatusInternalServerError)
		}
	}()
	_, r = pageLang(w, r)
	p := r.URL.Path
	var err error
	switch {
	case p == "/":
		err = h.games(w, r)
	case p == "/style.css":
		hd.Set("Content-Type", "text/css; charset=utf-8")
		hd.Set("Cache-Control", "public, max-age=3600")
		_, err = w.Write(styleCSS)
	case p == "/tournaments":
		err = h.tournaments(w, r)
	case p == "/challenges":
		err = h.challenges(w, r)
	case p == "/ratings":
		err = h.ratings(w, r)
	case strings.HasPrefix(p, "/game/") && strings.HasSuffix(p, ".pgn"):
		err = h.pgn(w, r, strings.TrimSuffix(strings.TrimPrefix(p, "/game/"), ".pgn"))
	case strings.HasPrefix(p, "/game/"):
		err = h.game(w, r, strings.TrimPrefix(p, "/game/"))
	case strings.HasPrefix(p, "/tournament/"):
		err = h.tournament(w, r, strings.TrimPrefix(p, "/tournament/"))
	case strings.HasPrefix(p, "/player/"):
		err = h.player(w, r, strings.TrimPrefix(p, "/player/"))
	default:
		err = errNotFound
	}
	switch {
	case err == nil:
	case errors.Is(err, errNotFound), errors.Is(err, store.ErrNotFound), errors.Is(err, archive.ErrNoGame):
		notFound(w, r)
	default:
		h.logger().Error("web: page", "path", p, "err", err)
		http.Error(w, "internal error", http.StatusInternalServerError)
	}
}

func (h *Handler) logger() *slog.Logger {
	if h.Log != nil {
		return h.Log
	}
	return slog.Default()
}

// notFound answers 404 with a page of the site, saying what is missing and the way back.
func notFound(w http.ResponseWriter, r *http.Request) {
	path := r.URL.Path
	what := "no-page"
	switch {
	case strings.HasPrefix(path, "/game/"):
		what = "no-game"
	case strings.HasPrefix(path, "/tournament/"):
		what = "no-tournament"
	case strings.HasPrefix(path, "/player/"):
		what = "no-player"
	}
	var buf bytes.Buffer
	if err := pagesIn[langOf(r)].ExecuteTemplate(&buf, "notfound", struct{ Title, What string }{say(r, "not-found", nil), say(r, what, nil)}); err != nil {
		http.Error(w, "not found", http.StatusNotFound)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(http.StatusNotFound)
	w.Write(buf.Bytes())
}

// render executes page name into a buffer first, so that an error answers 500 cleanly.
func render(w http.ResponseWriter, r *http.Request, name string, data any) error {
	var buf bytes.Buffer
	if err := pagesIn[langOf(r)].ExecuteTemplate(&buf, name, data); err != nil {
		return err
	}
	return send(w, r, "text/html; charset=utf-8", buf.Bytes())
}

// send writes body with an ETag made of its own hash (never of the store's times, which would
// tell when a hidden move was sent), answering 304 to a client that has it already.
func send(w http.ResponseWriter, r *http.Request, contentType string, body []byte) error {
	sum := sha256.Sum256(body)
	etag := `"` + base32.StdEncoding.EncodeToString(sum[:15]) + `"` // A-Z2-7: never reads as a square
	hd := w.Header()
	hd.Set("ETag", etag)
	hd.Set("Cache-Control", "no-cache")
	for _, t := range strings.Split(r.Header.Get("If-None-Match"), ",") {
		if t = strings.TrimPrefix(strings.TrimSpace(t), "W/"); t == etag || t == "*" {
			w.WriteHeader(http.StatusNotModified)
			return nil
		}
	}
	hd.Set("Content-Type", contentType)
	_, err := w.Write(body)
	return err
}

// Name is how the archive shows a player: the local part of his address, never the address.
func Name(address string) string {
	a := strings.TrimSpace(address)
	if i := strings.LastIndexByte(a, '<'); i >= 0 {
		a = strings.TrimSuffix(a[i+1:], ">")
	}
	if i := strings.IndexByte(a, '@'); i >= 0 {
		a = a[:i]
	}
	if i := strings.IndexByte(a, '+'); i >= 0 { // a sub-address is as private as a token
		a = a[:i]
	}
	if a == "" {
		return "?"
	}
	return a
}

// playerName says whether name could be a player's name (Name's of an address): no store is
// asked for one that could not (a database refuses a NUL or bytes that are not UTF-8).
func playerName(name string) bool {
	return name != "" && len(name) <= 200 && !strings.ContainsAny(name, "/@\x00") && utf8.ValidString(name)
}

// pageNumber reads a page's number from a link: 1 when it is none, the largest there is when
// it is too large to read (past the end: the last page).
func pageNumber(s string) int {
	n, err := strconv.Atoi(s)
	switch {
	case errors.Is(err, strconv.ErrRange) && !strings.HasPrefix(s, "-"):
		return math.MaxInt32
	case err != nil || n < 1:
		return 1
	}
	return min(n, math.MaxInt32)
}

func parseID(s string) (uint64, error) {
	if s == "" || len(s) > 20 {
		return 0, errNotFound
	}
	id, err := strconv.ParseUint(s, 10, 64)
	if err != nil || id == 0 {
		return 0, errNotFound
	}
	return id, nil
}

// finished reports whether a game is over, by its board or by the referee (a withdrawal).
func finished(sg *store.Game) bool { return sg.Over() }

// square is one square of a drawn board.
type square struct {
	Glyph  string
	Dark   bool
	Marked bool
}

// board is a drawn board: ranks from the top, with the file and rank labels.
type board struct {
	Title  string
	Files  []string
	Ranks  []rankRow
	Legend string
}

type rankRow struct {
	Label   string
	Squares []square
}

var glyphs = map[byte]string{'K': "♔", 'Q': "♕", 'R': "♖", 'B': "♗", 'N': "♘", 'P': "♙", 'k': "♚", 'q': "♛", 'r': "♜", 'b': "♝", 'n': "♞", 'p': "♟"}

// draw draws b with bottom at the bottom.
func draw(title string, b *chess.Board, bottom chess.Color, marked chess.Bitboard, legend string) board {
	d := board{Title: title}
	if marked == 0 {
		legend = ""
	}
	d.Legend = legend
	files := []int{0, 1, 2, 3, 4, 5, 6, 7}
	ranks := []int{7, 6, 5, 4, 3, 2, 1, 0}
	if bottom == chess.Black {
		files = []int{7, 6, 5, 4, 3, 2, 1, 0}
		ranks = []int{0, 1, 2, 3, 4, 5, 6, 7}
	}
	for _, f := range files {
		d.Files = append(d.Files, string(rune('a'+f)))
	}
	for _, rk := range ranks {
		row := rankRow{Label: strconv.Itoa(rk + 1)}
		for _, f := range files {
			s := chess.SquareAt(f, rk)
			row.Squares = append(row.Squares, square{Glyph: glyphs[b.At(s).FENChar()], Dark: (f+rk)%2 == 0, Marked: marked&(1<<uint(s)) != 0})
		}
		d.Ranks = append(d.Ranks, row)
	}
	return d
}

type step struct {
	N       int
	Label   string
	Current bool
}

type gamePage struct {
	Title        string
	ID           uint64
	Variant      string
	VariantKey   string
	White, Black string
	Finished     bool
	Result       string
	How          string
	Tournament   uint64
	Round        int
	Turn         string
	Movetext     string
	Boards       []board
	Lines        []string
	Steps        []step
	Ply, Plies   int
	Prev, Next   int
	Hidden       bool // a game in progress of which the archive shows the public minimum
	// Clocks are each side's time used and left, in a game with a time control whose turn
	// is public; TimeControl is the control.
	Clocks      []string
	TimeControl string
	// Replaced says, for each of the organizer's REPLACEs, who played a side up to which move
	// and who from there on.
	Replaced []string
}

// replacedLines tells of each of sg's replacements (store.Game.Former) who played the side up
// to which move, and who from there on, by name.
func replacedLines(sg *store.Game) []string {
	var out []string
	for i, f := range sg.Former {
		next := sg.Successor(i)
		upTo := "before the first move"
		if f.Move > 1 {
			upTo = fmt.Sprintf("up to move %d", f.Move-1)
		}
		out = append(out, fmt.Sprintf("%s played %s %s; %s from move %d on (replaced by the organizer on %s).",
			Name(f.Address), chess.Color(f.Side&1), upTo, Name(next), f.Move, f.At.UTC().Format("2006-01-02")))
	}
	return out
}

// game is /game/ID[?step=N]: a finished game at step N of the referee's log (each step one
// accepted command: a move, a series, a commit, an offer; not a ply).
func (h *Handler) game(w http.ResponseWriter, r *http.Request, idText string) error {
	id, err := parseID(idText)
	if err != nil {
		return err
	}
	step := r.URL.Query().Get("step")
	if step == "" {
		step = r.URL.Query().Get("ply") // the old name of step, in links made before
	}
	n, bad := -1, false // the last step; a step that is no number (a game in progress has none)
	if step != "" {
		if n, err = strconv.Atoi(step); err != nil || n < 0 {
			n, bad = -1, true
		}
	}
	var pg gamePage
	if err := h.db.View(func(tx *store.Tx) error {
		p, err := archive.Public(tx, id, n, Name)
		if errors.Is(err, archive.ErrNoStep) || (err == nil && bad && p.Finished) {
			return errNotFound
		}
		if err != nil {
			return err
		}
		pg = pageOf(r, p, h.now())
		return nil
	}); err != nil {
		return err
	}
	return render(w, r, "game", pg)
}

// pageOf is the page of what a spectator may see of a game (archive.Public decides it).
func pageOf(r *http.Request, p *archive.PublicGame, now time.Time) gamePage {
	sg, v := p.Stored, p.Variant
	pg := gamePage{ID: sg.ID, Variant: v.Name, VariantKey: v.Key, White: Name(sg.Players[0].Address), Black: Name(sg.Players[1].Address),
		Finished: p.Finished, Tournament: sg.Tournament, Round: sg.Round, Result: p.Result, How: p.How, Replaced: replacedLines(sg),
		Hidden: p.Hidden, Turn: p.Turn, Movetext: p.Movetext, Lines: p.Lines}
	pg.Title = say(r, "game-title", templates.Args{"ID": sg.ID, "Variant": v.Name})
	// The clocks, where spectators may see whose turn it is: as ICCF's pages show them
	// (issue 33).
	if c := p.Clock; c != nil {
		for s := range 2 {
			used := c.Used[s]
			if c.Running == s {
				used += c.Charged(now)
			}
			clock := say(r, "clock", templates.Args{"Side": chess.Color(s), "Used": used, "Left": c.Left(s, now), "Running": c.Running == s})
			pg.Clocks = append(pg.Clocks, clock)
		}
		pg.TimeControl = c.Control.String()
	}
	for _, b := range p.Boards {
		pg.Boards = append(pg.Boards, draw(b.Title, &b.Board, b.Bottom, b.Marked, b.Legend))
	}
	if !p.Finished {
		return pg
	}
	pg.Plies, pg.Ply = len(p.Steps), p.Step
	pg.Prev, pg.Next = max(pg.Ply-1, 0), min(pg.Ply+1, pg.Plies)
	pg.Steps = make([]step, 0, len(p.Steps)+1)
	pg.Steps = append(pg.Steps, step{N: 0, Label: "start", Current: pg.Ply == 0})
	for i, e := range p.Steps {
		label := fmt.Sprintf("%d. %s: %s", i+1, chess.Color(e.Side), e.Text)
		switch {
		case archive.EventBy(e) == "organizer":
			// The organizer's act (an adjudication), not a player's move, with his reason.
			label = fmt.Sprintf("%d. the organizer: %s", i+1, e.Text)
			if _, why, ok := strings.Cut(sg.Reason, ": "); ok && i == len(p.Steps)-1 {
				label += " (" + why + ")"
			}
		case e.Text == variant.CmdAbandon:
			// Logged when the organizer withdrew the player from the tournament.
			label = fmt.Sprintf("%d. the organizer: %s withdrawn (%s)", i+1, chess.Color(e.Side), sg.Reason)
		}
		pg.Steps = append(pg.Steps, step{N: i + 1, Label: label, Current: pg.Ply == i+1})
	}
	return pg
}

// pgn is /game/ID.pgn: refereed's own export of a finished game, players by name.
func (h *Handler) pgn(w http.ResponseWriter, r *http.Request, idText string) error {
	id, err := parseID(idText)
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	if err := h.db.View(func(tx *store.Tx) error {
		sg, err := tx.Game(id)
		if err != nil {
			return err
		}
		if !finished(sg) {
			return errNotFound
		}
		var raw bytes.Buffer
		if err := archive.Export(tx, id, &raw, archive.LiveTags); err != nil {
			return err
		}
		text := raw.String()
		for _, a := range sg.Indexed() { // the players, and who played before a REPLACE
			if a != "" {
				text = strings.ReplaceAll(text, a, Name(a))
			}
		}
		buf.WriteString(text)
		return nil
	}); err != nil {
		return err
	}
	w.Header().Set("Content-Disposition", fmt.Sprintf("attachment; filename=\"refereed-%d.pgn\"", id))
	return send(w, r, "application/x-chess-pgn; charset=utf-8", buf.Bytes())
}

type playerPage struct {
	Title            string
	Name             string
	Rows             []playerRow
	Won, Lost, Drawn int
	Going            int
	Truncated        bool
	Ratings          []playerRating
}

type playerRow struct {
	gameRow
	Opponent string
	Colour   string
	Score    string // "1", "0", "½", "" while going
}

// player is /player/NAME: his games (newest first, at most PageSize×10) and results.
func (h *Handler) player(w http.ResponseWriter, r *http.Request, name string) error {
	if !playerName(name) {
		return errNotFound
	}
	pg := playerPage{Title: say(r, "player-title", templates.Args{"Name": name}), Name: name}
	var all []store.Game
	if err := h.db.View(func(tx *store.Tx) (err error) {
		all, err = tx.GamesOfLocal(name) // by index: a page costs his games, not everyone's
		if err != nil {
			return err
		}
		pg.Ratings, err = ratingsOfPlayer(tx, name, all)
		return err
	}); err != nil {
		return err
	}
	for i := len(all) - 1; i >= 0; i-- {
		sg := &all[i]
		side := -1
		for s, p := range sg.Players {
			if Name(p.Address) == name {
				side = s
				break
			}
		}
		var handed *store.Former // he played the side up to the organizer's REPLACE
		for j := range sg.Former {
			if f := &sg.Former[j]; side < 0 && Name(f.Address) == name {
				side, handed = f.Side&1, f
			}
		}
		if side < 0 {
			continue
		}
		row := playerRow{gameRow: rowOf(sg), Colour: []string{"White", "Black"}[side]}
		row.Opponent = []string{row.Black, row.White}[side]
		var took *store.Former // whom he took the side over from
		for j := range sg.Former {
			if f := &sg.Former[j]; f.Side&1 == side && handed == nil {
				took = f
			}
		}
		switch {
		case handed != nil:
		case row.Status != "finished":
			pg.Going++
		case row.Result == "1/2-1/2":
			row.Score = "½"
			pg.Drawn++
		case (row.Result == "1-0") == (side == 0) && (row.Result == "1-0" || row.Result == "0-1"):
			row.Score = "1"
			pg.Won++
		case row.Result == "1-0" || row.Result == "0-1":
			row.Score = "0"
			pg.Lost++
		}
		switch {
		case handed != nil:
			// A game he played up to a REPLACE stays on his page, scored for his successor.
			if handed.Move > 1 {
				row.Status += fmt.Sprintf("; he played it up to move %d, then was replaced", handed.Move-1)
			} else {
				row.Status += "; replaced before his first move"
			}
			row.Score = "–"
		case took != nil:
			row.Status += fmt.Sprintf("; he took it over at move %d (for %s)", took.Move, Name(took.Address))
		}
		if len(pg.Rows) < PageSize*10 {
			pg.Rows = append(pg.Rows, row)
		} else {
			pg.Truncated = true
		}
	}
	if len(pg.Rows) == 0 {
		return errNotFound
	}
	return render(w, r, "player", pg)
}
