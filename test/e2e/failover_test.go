package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/refereed/refereed/mailer"
	"github.com/refereed/refereed/store"
)

// Two instances on one PostgreSQL store and one mailbox (real Dovecot and Postfix): a burst of
// games by mail while the leader is SIGKILLed several times, once SIGSTOPped for longer than
// its lease (then continued), and PostgreSQL itself is restarted. Every game ends exactly as
// its move list (no move lost or applied twice), duplicate replies stay within one per delivery
// worker per kill or stop, the old leader that wakes stands by, and the longest stall between
// two moves applied is under 15 s. test/t-10-failover/run.sh starts the servers.
func TestFailover(t *testing.T) {
	url := os.Getenv("REFEREED_TEST_PG")
	if url == "" || os.Getenv("REFEREED_TEST_REAL") != "1" {
		t.Skip("needs real mail servers and PostgreSQL: bash test/t-10-failover/run.sh")
	}
	games, minMoves := 16, 12
	a := newEnv(t)
	a.store = url
	b := newEnv(t)
	b.store = url
	b.writeConfig("plain", b.imapAddr)
	db, err := store.OpenURL(url, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	insts := []*env{a, b}
	a.start()
	leader := func() *env { // the instance that holds a live lease, nil if none
		holder, _, live, err := db.Leader()
		if err != nil || !live {
			return nil
		}
		parts := strings.Split(holder, "/")
		pid, _ := strconv.Atoi(parts[min(1, len(parts)-1)])
		for _, e := range insts {
			if e.alive() && e.pid() == pid {
				return e
			}
		}
		return nil
	}
	waitLeader := func() *env {
		deadline := time.Now().Add(30 * time.Second)
		for time.Now().Before(deadline) {
			if l := leader(); l != nil {
				return l
			}
			time.Sleep(100 * time.Millisecond)
		}
		t.Fatal("no instance leads after 30 s")
		return nil
	}
	if waitLeader() != a {
		t.Fatal("the first instance does not lead")
	}
	b.start()
	type game struct {
		id           uint64
		white, black string
	}
	var gs []game
	for i := 0; i < games; i++ {
		g := game{0, a.addr(fmt.Sprintf("w%d", i)), a.addr(fmt.Sprintf("b%d", i))}
		out, err := exec.Command(binary, "new", "--store", url, "--variant", "orthodox", "--white", g.white, "--black", g.black).CombinedOutput()
		if _, serr := fmt.Sscanf(string(out), "game #%d created", &g.id); err != nil || serr != nil {
			t.Fatalf("new: %v\n%s", err, out)
		}
		gs = append(gs, g)
	}

	// applied is how many moves were applied so far, in every game: the last count read while
	// the database does not answer (it is restarted). Only the chaos goroutine calls it.
	var lastApplied uint64
	applied := func() uint64 {
		var n uint64
		err := db.View(func(tx *store.Tx) error {
			for _, g := range gs {
				c, err := tx.EventCount(g.id)
				if err != nil {
					return err
				}
				n += c
			}
			return nil
		})
		if err != nil {
			t.Logf("count the moves applied: %v", err)
			return lastApplied
		}
		lastApplied = n
		return n
	}
	// recovered waits until a move is applied after a strike: the next strike is at a leader
	// that has taken over and works, as a real failure would find it.
	recovered := func(since uint64) {
		deadline := time.Now().Add(60 * time.Second)
		for applied() <= since && time.Now().Before(deadline) {
			time.Sleep(100 * time.Millisecond)
		}
	}
	chaosDone := make(chan struct{})
	var chaos sync.WaitGroup
	kills, stops, pgRestarts := 0, 0, 0
	chaos.Add(1)
	go func() {
		defer chaos.Done()
		defer close(chaosDone)
		// Each step waits for a leader, strikes, waits for the burst to go on, and lets it
		// run a while.
		steps := []string{"kill", "stop", "pg", "kill", "kill"}
		for _, step := range steps {
			time.Sleep(2500 * time.Millisecond)
			l := waitLeader()
			before := applied()
			switch step {
			case "kill":
				l.kill()
				kills++
				if err := l.startErr(); err != nil {
					t.Error(err)
					return
				}
			case "stop":
				pid := l.pid()
				syscall.Kill(pid, syscall.SIGSTOP)
				stops++
				time.Sleep(9 * time.Second) // longer than the lease (6 s): the other takes over
				syscall.Kill(pid, syscall.SIGCONT)
			case "pg":
				// The server pg_ctl starts logs to its file (-l): it must not hold this
				// process's pipes open.
				dir := getenv("PGCI_DIR", "/tmp/refereed-pgci")
				args := []string{"/usr/lib/postgresql/15/bin/pg_ctl", "-D", filepath.Join(dir, "data"), "-l", filepath.Join(dir, "server.log"), "-m", "fast", "-w", "restart"}
				if os.Getuid() == 0 {
					args = append([]string{"runuser", "-u", "postgres", "--"}, args...)
				}
				if err := exec.Command(args[0], args[1:]...).Run(); err != nil {
					t.Errorf("restarting PostgreSQL: %v (see %s/server.log)", err, dir)
				}
				pgRestarts++
			}
			recovered(before)
		}
	}()
	var wg sync.WaitGroup
	moves := script()
	played := make([]int, games)
	for i, g := range gs {
		wg.Add(1)
		go func(i int, g game) {
			defer wg.Done()
			// Moves go on until the chaos is over (at least minMoves, whole move pairs).
			k := 0
			for ; ; k++ {
				if k == len(moves) {
					played[i] = k
					return
				}
				if k >= minMoves && k%2 == 0 {
					select {
					case <-chaosDone:
						played[i] = k
						return
					default:
					}
				}
				player := g.white
				if k%2 == 1 {
					player = g.black
				}
				if k >= minMoves {
					time.Sleep(2 * time.Second) // a steady load while the chaos goes on
				}
				a.replySlow(player, 1+k, moves[k])
			}
		}(i, g)
	}
	wg.Wait()
	chaos.Wait()
	for i, g := range gs {
		a.waitMail(g.white, 1+played[i], 90*time.Second)
		a.waitMail(g.black, 1+played[i], 90*time.Second)
		out, err := exec.Command(binary, "export", strconv.FormatUint(g.id, 10), "--include-hidden", "--store", url).CombinedOutput()
		if err != nil {
			t.Fatalf("export: %v\n%s", err, out)
		}
		var want []string
		for k := 0; k < played[i]; k += 2 {
			want = append(want, fmt.Sprintf("%d. %s %s", k/2+1, moves[k], moves[k+1]))
		}
		if !strings.Contains(strings.Join(strings.Fields(string(out)), " "), "] "+strings.Join(want, " ")+" *") {
			t.Errorf("game %d is not exactly its %d moves (%d kills, %d stops, %d PostgreSQL restarts):\n%s", g.id, played[i], kills, stops, pgRestarts, out)
		}
	}
	a.dups.Store(0)
	for i, g := range gs {
		for _, p := range []string{g.white, g.black} {
			if n := len(a.inbox(p)); n != 1+played[i] {
				t.Errorf("%s received %d distinct mails, want %d", p, n, 1+played[i])
			}
		}
	}
	dups := a.dups.Load()
	// The longest stall: the longest time between two moves applied, across all games.
	var stall time.Duration
	db.View(func(tx *store.Tx) error {
		var ats []time.Time
		for _, g := range gs {
			evs, _ := tx.Events(g.id)
			for _, e := range evs {
				ats = append(ats, e.At)
			}
		}
		slices.SortFunc(ats, time.Time.Compare)
		for i := 1; i < len(ats); i++ {
			stall = max(stall, ats[i].Sub(ats[i-1]))
		}
		return nil
	})
	woke := false
	for _, e := range insts {
		if b, err := os.ReadFile(e.logFile); err == nil && strings.Contains(string(b), "another instance took over: standing by") {
			woke = true
		}
	}
	t.Logf("%d kills, %d stops, %d PostgreSQL restarts; %d duplicate deliveries; longest stall %v", kills, stops, pgRestarts, dups, stall.Round(time.Millisecond))
	fmt.Printf("failover scenario: %d kills, %d stops, %d PostgreSQL restarts, %d duplicate deliveries, longest stall %v\n", kills, stops, pgRestarts, dups, stall.Round(time.Millisecond))
	if dups > int64((kills+stops)*mailer.DefaultParallel) {
		t.Errorf("%d duplicate deliveries after %d kills and %d stops: more than one per delivery worker each", dups, kills, stops)
	}
	if stall > 15*time.Second {
		t.Errorf("a stall of %v between two moves (want under 15 s)", stall)
	}
	if !woke {
		t.Error("the instance stopped past its lease did not say it stood by when it woke")
	}
}

// replySlow is reply with a patience fit for failovers: the answer to the last move may wait
// for a new leader.
func (e *env) replySlow(user string, n int, body string) {
	e.t.Helper()
	msgs := e.waitMail(user, n, 90*time.Second)
	last := msgs[len(msgs)-1]
	e.send(user, last.ReplyTo, "Re: "+last.Subject, body, fmt.Sprintf("In-Reply-To: <%s>\r\n", last.MessageID))
}

// script is a long game that never repeats a position (the same position five times ends a
// game): knights out and back, then a pawn step each, twelve times over.
func script() []string {
	white := []string{"a3", "a4", "b3", "b4", "c3", "c4", "d3", "d4", "e3", "e4", "h3", "h4"}
	black := []string{"a6", "a5", "b6", "b5", "c6", "c5", "d6", "d5", "e6", "e5", "h6", "h5"}
	var out []string
	for i := range white {
		out = append(out, "Nf3", "Nf6", "Ng1", "Ng8", white[i], black[i])
	}
	return out
}
