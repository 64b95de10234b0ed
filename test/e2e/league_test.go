package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/refereed/refereed/chess"
	"github.com/refereed/refereed/parser"
	"github.com/refereed/refereed/referee"
	"github.com/refereed/refereed/referee/organizer"
	"github.com/refereed/refereed/store"
	"github.com/refereed/refereed/store/storetest"
	"github.com/refereed/refereed/variant"
	_ "github.com/refereed/refereed/variant/all"
)

// TestLeagueStart measures the daemon itself on a large league (issue 23), the sizes side by
// side in one run: REFEREED_TEST_LEAGUE=1000,100000 (test/t-11-league runs 1,000 games with a
// short idle window). For each size it builds a store as a league grows, through the
// referee's own paths: a tenth of the games in round-robin tournaments of five
// (Referee.Tournaments().New, what `refereed tournament new` does), the rest one by one
// (Referee.NewGame, what `refereed new` does), every tenth game with two moves by mail
// (Referee.Handle); the mails they made are marked delivered. Then the real binary serves the
// store with its built-in mail server, and the test prints:
//   - start to first answer: from starting the daemon to the opponent's mail in his mailbox,
//     for a move sent as soon as the daemon listens;
//   - idle CPU: the daemon's user and system time over an idle window
//     (REFEREED_TEST_LEAGUE_IDLE, a minute by default, which holds a deadline check), per minute;
//   - start to first answer after a crash: the daemon killed (SIGKILL), started again, and
//     the opponent's move answered (the store's free list is rebuilt by walking the file).
//
// It fails only if the daemon does not answer; the figures are for the README's table. With
// REFEREED_TEST_LEAGUE_STORE=postgres the league is a PostgreSQL store (a fresh schema of
// REFEREED_TEST_PG's database), served with --store.
func TestLeagueStart(t *testing.T) {
	sizes := os.Getenv("REFEREED_TEST_LEAGUE")
	if sizes == "" {
		t.Skip("a measurement (test/t-11-league): REFEREED_TEST_LEAGUE=1000,100000")
	}
	if os.Getenv("REFEREED_TEST_REAL") == "1" {
		t.Skip("the built-in mail server's scenario")
	}
	idle := time.Minute
	if s := os.Getenv("REFEREED_TEST_LEAGUE_IDLE"); s != "" {
		d, err := time.ParseDuration(s)
		if err != nil {
			t.Fatalf("REFEREED_TEST_LEAGUE_IDLE=%q: %v", s, err)
		}
		idle = d
	}
	var lines []string
	for _, f := range strings.Split(sizes, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 100 {
			t.Fatalf("REFEREED_TEST_LEAGUE=%q: game counts of 100 or more", sizes)
		}
		t.Run(fmt.Sprintf("games=%d", n), func(t *testing.T) {
			lines = append(lines, measureLeague(t, n, idle))
		})
	}
	fmt.Println("league scenario, side by side:")
	for _, l := range lines {
		fmt.Println("  " + l)
	}
}

// measureLeague builds a league of n games, serves it, and says what starting and idling cost.
func measureLeague(t *testing.T, n int, idle time.Duration) string {
	e := newEnv(t)
	e.poll = "-" // the daemon as a newcomer runs it: IDLE, with its 30 s safety poll
	if os.Getenv("REFEREED_TEST_LEAGUE_STORE") == "postgres" {
		e.store = storetest.Postgres(t)
	}
	t0 := time.Now()
	lg := cachedLeague(t, e, n)
	fmt.Printf("games=%d: built in %s (store %d MB)\n", n, time.Since(t0).Round(time.Second), lg.size>>20)

	// The first start makes the built-in server's mailboxes and passwords: not the cost
	// measured. Start once, stop, then measure the second start.
	e.start()
	e.stop()
	start := time.Now()
	e.start()
	listening := time.Since(start)
	answered := lg.play(t, e, start, 0, "d4", "White played 1. d4")

	time.Sleep(5 * time.Second) // what the answer set going settles
	cpu0 := cpuTime(t, e.pid())
	time.Sleep(idle)
	used := cpuTime(t, e.pid()) - cpu0
	perMinute := time.Duration(float64(used) * float64(time.Minute) / float64(idle))

	// A crash (SIGKILL): the next start reads the store's free list as the last commit wrote
	// it (issue 38; it was rebuilt by reading the whole file).
	e.kill()
	start = time.Now()
	e.start()
	afterCrash := lg.play(t, e, start, 1, "d5", "Black played 1... d5")
	// The same with the file out of the page cache, where the machine lets us drop it (root).
	cold := "cold cache: not measured (no root)"
	e.kill()
	if dropCaches() == nil {
		start = time.Now()
		e.start()
		cold = fmt.Sprintf("cold cache %4d ms", lg.play(t, e, start, 0, "Nf3", "White played 2. Nf3").Milliseconds())
	} else {
		e.start()
	}
	// SIGTERM at once after a start after a crash (the store opening, with the cache
	// dropped): the daemon stops within a few seconds, whatever it is doing. The signal goes
	// when the daemon logs that it opens the store: sent before, it would meet Go's default
	// handling (the process killed), not the daemon's.
	e.kill()
	dropCaches()
	opening := strings.Count(readFile(t, e.logFile), `msg="opening the store"`)
	d := e.startProcess()
	for deadline := time.Now().Add(30 * time.Second); strings.Count(readFile(t, e.logFile), `msg="opening the store"`) == opening; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the daemon did not log that it opens the store in 30 s")
		}
	}
	sigterm := time.Now()
	d.Process.Signal(syscall.SIGTERM)
	exited := make(chan error, 1)
	go func() { exited <- d.Wait() }()
	select {
	case err := <-exited:
		if err != nil { // killed by the signal, or an error: not a clean stop
			t.Errorf("SIGTERM at start: %v (want a clean stop, exit 0)", err)
		}
	case <-time.After(30 * time.Second):
		t.Errorf("SIGTERM at start: the daemon still ran 30 s later")
		d.Process.Kill()
		<-exited
	}
	stopped := time.Since(sigterm)
	if dir := os.Getenv("REFEREED_TEST_LEAGUE_LOGS"); dir != "" { // the daemon's log, kept
		if err := copyFile(e.logFile, filepath.Join(dir, fmt.Sprintf("daemon-%d.log", n))); err != nil {
			t.Error(err)
		}
	}
	return fmt.Sprintf("games=%-7d start to listening %4d ms, start to first answer %4d ms (after a crash %4d ms, %s), SIGTERM at start: gone in %d ms, idle CPU %3d ms a minute (over %s)",
		n, listening.Milliseconds(), answered.Milliseconds(), afterCrash.Milliseconds(), cold, stopped.Milliseconds(), perMinute.Milliseconds(), idle)
}

// dropCaches empties the kernel's page cache (root only), so that the next start reads the
// store from the disk.
func dropCaches() error {
	exec.Command("sync").Run()
	return os.WriteFile("/proc/sys/vm/drop_caches", []byte("3\n"), 0o200)
}

// league is what the measurement needs of a league built: the players of a game with no
// move yet, their reply addresses, and the store's size.
type league struct {
	players, to [2]string
	size        int64
}

// play sends move from the player of side and returns the time from start until his
// opponent's mailbox holds the news (told).
func (lg league) play(t *testing.T, e *env, start time.Time, side int, move, told string) time.Duration {
	e.send(lg.players[side], lg.to[side], "Re: your move", move)
	for deadline := time.Now().Add(time.Minute); !says(e.small(lg.players[1-side]), told); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%s: no answer within a minute", move)
		}
	}
	return time.Since(start)
}

// cachedLeague is buildLeague, or with REFEREED_TEST_LEAGUE_CACHE=DIR the league built by an
// earlier run, copied from DIR (and kept there when it is built): for measuring again.
func cachedLeague(t *testing.T, e *env, n int) league {
	dir := os.Getenv("REFEREED_TEST_LEAGUE_CACHE")
	if dir == "" || e.store != "" {
		return buildLeague(t, e, n)
	}
	cached := filepath.Join(dir, fmt.Sprintf("league-%d.db", n))
	who := cached + ".players"
	store := filepath.Join(e.data, "refereed.db")
	if b, err := os.ReadFile(who); err == nil {
		if err := copyFile(cached, store); err != nil {
			t.Fatal(err)
		}
		f := strings.Fields(string(b))
		st, _ := os.Stat(store)
		return league{players: [2]string{f[0], f[1]}, to: [2]string{f[2], f[3]}, size: st.Size()}
	}
	lg := buildLeague(t, e, n)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := copyFile(store, cached); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(who, []byte(strings.Join(append(lg.players[:], lg.to[:]...), " ")), 0o600); err != nil {
		t.Fatal(err)
	}
	return lg
}

func copyFile(from, to string) error {
	b, err := os.ReadFile(from)
	if err != nil {
		return err
	}
	return os.WriteFile(to, b, 0o600)
}

// says reports whether one of mails says text.
func says(mails []*parser.Message, text string) bool {
	for _, m := range mails {
		if strings.Contains(m.Body, text) {
			return true
		}
	}
	return false
}

// buildLeague fills e's data directory with a league of n games; the game measured is one
// more, with no move yet.
func buildLeague(t *testing.T, e *env, n int) league {
	path := filepath.Join(e.data, "refereed.db")
	if e.store != "" {
		path = e.store
	}
	db, err := store.OpenURL(path, store.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	r := &referee.Referee{DB: db, Address: e.referee}
	players := n/10 + 1
	addr := func(i int) string { return fmt.Sprintf("p%d@%s", i%players, e.domain) }
	made := 0
	var moved []uint64
	for made < n {
		if made%100 < 10 && n-made >= 10 { // a tenth of the games: a section of five, ten games
			five := []string{addr(made), addr(made + 1), addr(made + 2), addr(made + 3), addr(made + 4)}
			if _, err := r.Tournaments().New(organizer.Options{Name: fmt.Sprintf("Section %d", made/10), Variant: "orthodox", Players: five}); err != nil {
				t.Fatal(err)
			}
			made += 10
			continue
		}
		id, err := r.NewGame("orthodox", addr(made), addr(made+7), variant.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if made%10 == 5 {
			moved = append(moved, id)
		}
		made++
		if made%1000 == 0 {
			playMoves(t, e, r, moved)
			moved = moved[:0]
			drainOutbox(t, db)
		}
	}
	playMoves(t, e, r, moved)
	drainOutbox(t, db)
	// What the minute's deadline check of a running daemon did as the games came: each new
	// game filed under the moment of its first reminder.
	if _, err := r.CheckDeadlines(); err != nil {
		t.Fatal(err)
	}
	drainOutbox(t, db)
	// The game measured: a new one, between two of the league's players.
	lg := league{players: [2]string{addr(1), addr(2)}}
	id, err := r.NewGame("orthodox", lg.players[0], lg.players[1], variant.Options{})
	if err != nil {
		t.Fatal(err)
	}
	lg.to = [2]string{replyAddress(t, r, id, 0), replyAddress(t, r, id, 1)}
	drainOutbox(t, db)
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	if e.store != "" {
		return lg // the database's size is its own business
	}
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	lg.size = st.Size()
	return lg
}

// playMoves plays 1. e4 e5 by mail in each of ids, as its players would reply.
func playMoves(t *testing.T, e *env, r *referee.Referee, ids []uint64) {
	for _, id := range ids {
		for side, move := range []string{"e4", "e5"} {
			var from string
			if err := r.DB.View(func(tx *store.Tx) error {
				g, err := tx.Game(id)
				if err == nil {
					from = g.Players[side].Address
				}
				return err
			}); err != nil {
				t.Fatal(err)
			}
			to := replyAddress(t, r, id, side)
			raw := fmt.Sprintf("From: %s\r\nTo: %s\r\nSubject: Re: your move\r\nMessage-ID: <league.%d.%d@%s>\r\nDate: %s\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n%s\r\n",
				from, to, id, side, e.domain, time.Now().Format(time.RFC1123Z), move)
			key := store.InboxKey{Mailbox: "INBOX", UIDValidity: 1, UID: uint32(id*2) + uint32(side)}
			if err := r.Handle(key, []byte(raw)); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// replyAddress is the address a player of game id replies to, as his mails give it.
func replyAddress(t *testing.T, r *referee.Referee, id uint64, side int) string {
	var to string
	if err := r.DB.View(func(tx *store.Tx) error {
		g, err := tx.Game(id)
		if err == nil {
			to = r.ReplyAddress(g, chess.Color(side))
		}
		return err
	}); err != nil {
		t.Fatal(err)
	}
	return to
}

// drainOutbox marks every queued mail delivered, as the daemon's delivery would.
func drainOutbox(t *testing.T, db *store.DB) {
	if err := db.Update(func(tx *store.Tx) error {
		mails, err := tx.Outbox()
		if err != nil {
			return err
		}
		for _, m := range mails {
			if err := tx.Done(m); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
}

// cpuTime is the user and system time process pid has used (Linux, /proc).
func cpuTime(t *testing.T, pid int) time.Duration {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		t.Fatal(err)
	}
	// The fields after the command's ")": utime and stime are the 12th and 13th.
	s := string(b)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	utime, _ := strconv.ParseInt(f[11], 10, 64)
	stime, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(utime+stime) * time.Second / 100 // USER_HZ
}

// readFile is a file's content ("" when it cannot be read yet).
func readFile(t *testing.T, path string) string {
	t.Helper()
	b, _ := os.ReadFile(path)
	return string(b)
}
