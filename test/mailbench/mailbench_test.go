// Package mailbench measures the referee's mail pipeline against real Dovecot and Postfix
// beside a raw consumer in the same run (issue: throughput at least 0.8x the raw consumer,
// the referee's own CPU at most 2 ms per mail, p50 latency within 1.2x of the raw consumer
// polling every 25 ms). It needs the real mail stack: run test/mailbench/run.sh.
//
// The raw consumer has no game logic and no store: one IMAP connection fetches every new
// mail, parses it with go-message, answers each over one SMTP connection, then moves the batch
// to Processed. It answers with one mail, or (raw-two) with two as the referee does, so that
// the mail servers' work for the referee's second mail is measured apart from the referee's
// own. The referee is wired as `refereed serve` wires it: Intake (fast poll 25 ms) ->
// store -> Referee -> Sender, with a real bbolt file. The process runs with the daemon's
// garbage-collector policy (gcpolicy), as `refereed serve` does; both pipelines share it.
package mailbench

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"os"
	"regexp"
	"runtime/pprof"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
	"github.com/emersion/go-smtp"

	"github.com/refereed/refereed/chess"
	"github.com/refereed/refereed/gcpolicy"
	"github.com/refereed/refereed/mailer"
	"github.com/refereed/refereed/parser"
	"github.com/refereed/refereed/referee"
	"github.com/refereed/refereed/store"
	"github.com/refereed/refereed/store/storetest"
	"github.com/refereed/refereed/variant"
	_ "github.com/refereed/refereed/variant/all"
)

var (
	imapAddr = getenv("IMAP_ADDR", "127.0.0.1:1143")
	smtpAddr = getenv("SMTP_ADDR", "127.0.0.1:2525")
	password = getenv("MAIL_PASS", "secret")
	refAddr  = getenv("MAIL_USER", "referee@example.test")
	domain   = refAddr[strings.IndexByte(refAddr, '@')+1:]
	quiet    = slog.New(slog.NewTextHandler(io.Discard, nil))
)

func getenv(k, def string) string {
	if v := os.Getenv(k); v != "" {
		return v
	}
	return def
}

func TestMain(m *testing.M) {
	gcpolicy.Apply(os.Getenv) // as refereed serve runs
	os.Exit(m.Run())
}

func needReal(b *testing.B) {
	if os.Getenv("REFEREED_TEST_REAL") != "1" {
		b.Skip("needs real Dovecot and Postfix: run test/mailbench/run.sh")
	}
}

// cpuSplit is this process's user and system CPU time.
func cpuSplit() (user, sys time.Duration) {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano()), time.Duration(ru.Stime.Nano())
}

// empty clears the referee's mailboxes, and the players' (w0..w19, b0..b19): every burst
// starts from the same mailboxes. Dovecot's delivery into a mailbox costs more the more it
// holds, and the bursts that came later used to pay for the mail of those before.
func empty(b *testing.B) {
	accounts := []string{refAddr}
	for i := 0; i < 20; i++ {
		accounts = append(accounts, fmt.Sprintf("w%d@%s", i, domain), fmt.Sprintf("b%d@%s", i, domain))
	}
	for _, a := range accounts {
		c, err := imapclient.DialInsecure(imapAddr, nil)
		if err != nil {
			b.Fatal(err)
		}
		if err := c.Login(a, password).Wait(); err != nil {
			c.Close()
			b.Fatal(err)
		}
		for _, mb := range []string{"INBOX", "Processed"} {
			if sel, err := c.Select(mb, nil).Wait(); err == nil && sel.NumMessages > 0 {
				c.Store(imap.SeqSetNum(seqRange(sel.NumMessages)...), &imap.StoreFlags{Op: imap.StoreFlagsAdd, Silent: true, Flags: []imap.Flag{imap.FlagDeleted}}, nil).Close()
				c.Expunge().Close()
			}
		}
		c.Close()
	}
}

func seqRange(n uint32) []uint32 {
	s := make([]uint32, n)
	for i := range s {
		s[i] = uint32(i + 1)
	}
	return s
}

// tap is the SMTP transport of every pipeline: it sends to Postfix and notes when the
// answers to each move were accepted. A raw answer names its move in In-Reply-To; the referee
// answers a move with two mails (the mover's reply and the opponent's news), both with the
// game's number in their Message-ID. A move is answered when need answers were accepted.
type tap struct {
	mu       sync.Mutex
	smtp     *mailer.SMTP
	byGame   bool
	need     int
	count    map[string]int
	accepted map[string]time.Time
}

// newTap is the referee's tap (byGame, two answers a move) or a raw consumer's (need answers).
func newTap(byGame bool, need int) *tap {
	return &tap{smtp: &mailer.SMTP{Addr: smtpAddr, Security: "plain"}, byGame: byGame, need: need, count: map[string]int{}, accepted: map[string]time.Time{}}
}

var gameID = regexp.MustCompile(`Message-Id: <refereed\.g(\d+)\.`)

func (t *tap) Send(ctx context.Context, from string, to []string, raw []byte) error {
	if err := t.smtp.Send(ctx, from, to, raw); err != nil {
		return err
	}
	now := time.Now()
	key := ""
	if t.byGame {
		if m := gameID.FindSubmatch(raw); m != nil {
			key = "g" + string(m[1])
		}
	} else if i := bytes.Index(raw, []byte("In-Reply-To: <")); i >= 0 {
		end := bytes.IndexByte(raw[i:], '>')
		key = string(raw[i+len("In-Reply-To: <") : i+end])
	}
	t.mu.Lock()
	t.count[key]++
	if t.count[key] == t.need {
		t.accepted[key] = now
	}
	t.mu.Unlock()
	return nil
}

func (t *tap) Close() error { return t.smtp.Close() }

// answers is how many moves were answered so far.
func (t *tap) answers() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return len(t.accepted)
}

func (t *tap) answered(keys []string) (int, []time.Time) {
	t.mu.Lock()
	defer t.mu.Unlock()
	var at []time.Time
	for _, k := range keys {
		if ts, ok := t.accepted[k]; ok {
			at = append(at, ts)
		}
	}
	return len(at), at
}

// rawConsumer answers every mail of the referee's INBOX, polling every interval: with one
// mail to its sender, or with two as the referee does (the second to the sender's opponent:
// bN for wN), so that the mail servers deliver as many mails for it as for the referee.
func rawConsumer(ctx context.Context, out *tap, interval time.Duration, answers int) error {
	c, err := imapclient.DialInsecure(imapAddr, nil)
	if err != nil {
		return err
	}
	defer c.Close()
	if err := c.Login(refAddr, password).Wait(); err != nil {
		return err
	}
	c.Create("Processed", nil).Wait()
	if _, err := c.Select("INBOX", nil).Wait(); err != nil {
		return err
	}
	body := &imap.FetchItemBodySection{Peek: true}
	for ctx.Err() == nil {
		res, err := c.UIDSearch(&imap.SearchCriteria{}, nil).Wait()
		if err != nil {
			return err
		}
		if uids := res.AllUIDs(); len(uids) > 0 {
			set := imap.UIDSetNum(uids...)
			msgs, err := c.Fetch(set, &imap.FetchOptions{UID: true, BodySection: []*imap.FetchItemBodySection{body}}).Collect()
			if err != nil {
				return err
			}
			for _, m := range msgs {
				p, err := parser.Parse(m.FindBodySection(body))
				if err != nil {
					continue
				}
				reply := fmt.Sprintf("From: %s\r\nTo: %s\r\nSubject: Re: %s\r\nMessage-ID: <raw.%s>\r\nIn-Reply-To: <%s>\r\nAuto-Submitted: auto-replied\r\n\r\nreceived\r\n", refAddr, p.From, p.Subject, p.MessageID, p.MessageID)
				if err := out.Send(ctx, "", []string{p.From}, []byte(reply)); err != nil {
					return err
				}
				if answers == 2 {
					opp := "b" + strings.TrimPrefix(p.From, "w")
					news := fmt.Sprintf("From: %s\r\nTo: %s\r\nSubject: Re: %s\r\nMessage-ID: <raw.b.%s>\r\nIn-Reply-To: <%s>\r\nAuto-Submitted: auto-generated\r\n\r\nyour opponent moved\r\n", refAddr, opp, p.Subject, p.MessageID, p.MessageID)
					if err := out.Send(ctx, "", []string{opp}, []byte(news)); err != nil {
						return err
					}
				}
			}
			out.Close()
			if _, err := c.Move(set, "Processed").Wait(); err != nil {
				return err
			}
		}
		select {
		case <-ctx.Done():
		case <-time.After(interval):
		}
	}
	return nil
}

// refereePipeline runs intake -> referee -> sender as `refereed serve` does.
func refereePipeline(ctx context.Context, b *testing.B, db *store.DB, out *tap, fastPoll time.Duration) *sync.WaitGroup {
	ref := &referee.Referee{DB: db, Address: refAddr, Log: quiet}
	newMail, outbox := make(chan struct{}, 1), make(chan struct{}, 1)
	poke := func(ch chan struct{}) {
		select {
		case ch <- struct{}{}:
		default:
		}
	}
	intake := &mailer.Intake{IMAP: mailer.IMAP{Addr: imapAddr, Security: "plain", Username: refAddr, Password: password},
		DB: db, FastPoll: fastPoll, OnNew: func() { poke(newMail) }, Log: quiet}
	sender := &mailer.Sender{DB: db, Transport: out, Log: quiet}
	var wg sync.WaitGroup
	wg.Add(3)
	go func() { defer wg.Done(); intake.Run(ctx) }()
	go func() { defer wg.Done(); sender.Run(ctx, outbox, time.Second) }()
	go func() {
		defer wg.Done()
		for ctx.Err() == nil {
			if n, _ := ref.ProcessInbox(); n > 0 {
				poke(outbox)
			}
			select {
			case <-ctx.Done():
			case <-newMail:
			case <-time.After(time.Second):
			}
		}
	}()
	return &wg
}

// startReferee empties the mailboxes, creates n games in a fresh store and starts the
// referee's pipeline polling every poll. stop ends it and closes the store.
func startReferee(b *testing.B, n int, poll time.Duration, backend string) (white, to, keys []string, out *tap, stop func()) {
	empty(b)
	db, err := store.OpenURL(storetest.Location(b, backend), store.Options{})
	if err != nil {
		b.Fatal(err)
	}
	white, to, keys = games(b, db, n)
	out = newTap(true, 2)
	ctx, cancel := context.WithCancel(context.Background())
	wg := refereePipeline(ctx, b, db, out, poll)
	return white, to, keys, out, func() {
		cancel()
		wg.Wait()
		db.Close()
	}
}

// games creates n orthodox games and returns, for each, White's address, White's reply
// address and the game's key in the tap.
func games(b *testing.B, db *store.DB, n int) (white, to, keys []string) {
	ref := &referee.Referee{DB: db, Address: refAddr}
	for i := 0; i < n; i++ {
		// The players are the test users; one address may play several games.
		w := fmt.Sprintf("w%d@%s", i%20, domain)
		id, err := ref.NewGame("orthodox", w, fmt.Sprintf("b%d@%s", i%20, domain), variant.Options{})
		if err != nil {
			b.Fatal(err)
		}
		keys = append(keys, fmt.Sprintf("g%d", id))
		db.View(func(tx *store.Tx) error {
			g, _ := tx.Game(id)
			white = append(white, w)
			to = append(to, fmt.Sprintf("%s+g%d-w-%s@%s", refAddr[:strings.IndexByte(refAddr, '@')], id, g.Players[chess.White].Token, domain))
			return nil
		})
	}
	// The opening mails are not part of the measurement.
	db.Update(func(tx *store.Tx) error {
		mails, _ := tx.Outbox()
		for _, m := range mails {
			tx.Done(m)
		}
		return nil
	})
	return white, to, keys
}

// burst sends one move per game over 4 SMTP connections and returns the Message-IDs.
func burst(b *testing.B, from, to []string, tag string) []string {
	ids := make([]string, len(to))
	var wg sync.WaitGroup
	for w := 0; w < 4; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			c, err := smtp.Dial(smtpAddr)
			if err != nil {
				b.Error(err)
				return
			}
			defer c.Close()
			for i := w; i < len(to); i += 4 {
				ids[i] = fmt.Sprintf("%s.%d.%d@%s", tag, time.Now().UnixNano(), i, domain)
				raw := fmt.Sprintf("From: %s\r\nTo: %s\r\nSubject: move\r\nMessage-ID: <%s>\r\n\r\ne4\r\n", from[i], to[i], ids[i])
				if err := c.SendMail(from[i], []string{to[i]}, strings.NewReader(raw)); err != nil {
					b.Error(err)
					return
				}
			}
		}(w)
	}
	wg.Wait()
	return ids
}

func waitAnswered(b *testing.B, out *tap, ids []string, timeout time.Duration) []time.Time {
	deadline := time.Now().Add(timeout)
	for time.Now().Before(deadline) {
		// The count of answers first: looking every key up at every poll is this process's
		// CPU, and was counted as the pipeline's.
		if out.answers() >= len(ids) {
			if n, at := out.answered(ids); n == len(ids) {
				return at
			}
		}
		time.Sleep(10 * time.Millisecond)
	}
	n, _ := out.answered(ids)
	b.Fatalf("%d of %d mails answered after %v", n, len(ids), timeout)
	return nil
}

// BenchmarkThroughput: a burst of game mails (one move each, 250 games), answered end to end
// (SMTP in, IMAP intake, bbolt commit, replies accepted by Postfix), by the raw consumer and by
// the referee, in the same run.
func BenchmarkThroughput(b *testing.B) {
	needReal(b)
	n := 250
	if v, err := strconv.Atoi(os.Getenv("REFEREED_BENCH_MAILS")); err == nil && v > 0 {
		n = v // a longer burst, for a profile with more samples
	}
	for i := 0; i < b.N; i++ {
		// The harness alone: the same burst to mailboxes nobody reads, for the CPU it costs
		// this process (subtracted below to give each pipeline's own CPU).
		empty(b)
		hFrom, hTo := make([]string, n), make([]string, n)
		for k := range hTo {
			hFrom[k], hTo[k] = fmt.Sprintf("w%d@%s", k%20, domain), fmt.Sprintf("b%d@%s", k%20, domain)
		}
		hU0, hS0 := cpuSplit()
		burst(b, hFrom, hTo, "harness")
		hU1, hS1 := cpuSplit()
		harness, harnessUser := hU1-hU0+hS1-hS0, hU1-hU0
		// The raw consumers, before and after the referee's bursts, in mirrored order (one
		// answer, two answers, bbolt, PostgreSQL, two answers, one answer): the machine's pace
		// swings within minutes, and each pipeline is read against the mean of the two runs.
		runRaw := func(tag string, answers int) (rate float64, cpu, user, machine time.Duration) {
			empty(b)
			rawOut := newTap(false, answers)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			go rawConsumer(ctx, rawOut, 25*time.Millisecond, answers)
			from := make([]string, n)
			to := make([]string, n)
			for k := range to {
				from[k], to[k] = fmt.Sprintf("w%d@%s", k%20, domain), refAddr
			}
			u0, s0 := cpuSplit()
			m0 := machineBusy()
			snapR := tasks()
			start := time.Now()
			ids := burst(b, from, to, tag)
			waitAnswered(b, rawOut, ids, 2*time.Minute)
			byCommand(tag, snapR, tasks(), n)
			rate = float64(n) / time.Since(start).Seconds()
			u1, s1 := cpuSplit()
			machine = machineBusy() - m0
			cancel()
			time.Sleep(200 * time.Millisecond)
			return rate, u1 - u0 + s1 - s0, u1 - u0, machine
		}
		rawRate, rawCPU, rawUser, rawMachine := runRaw("raw", 1)
		twoRate, _, _, twoMachine := runRaw("raw-two", 2)

		// Referee.
		white, refTo, keys, refOut, stop := startReferee(b, n, 25*time.Millisecond, "bolt")
		stopProfile := profile(b, "REFEREED_BENCH_CPUPROFILE") // the referee's burst alone
		u0, s0 := cpuSplit()
		commits, sessions := store.Commits.Load(), mailer.Sessions.Load()
		m0 := machineBusy()
		snapB := tasks()
		start := time.Now()
		burst(b, white, refTo, "ref")
		waitAnswered(b, refOut, keys, 2*time.Minute)
		byCommand("bolt", snapB, tasks(), n)
		refRate := float64(n) / time.Since(start).Seconds()
		u1, s1 := cpuSplit()
		refMachine := machineBusy() - m0
		// Write transactions per mail: intake, the referee's, the deliveries' records.
		b.ReportMetric(float64(store.Commits.Load()-commits)/float64(n), "bolt-commits/mail")
		// SMTP sessions opened per mail answered (each: connect, greeting, EHLO, QUIT).
		b.ReportMetric(float64(mailer.Sessions.Load()-sessions)/float64(n), "smtp-sessions/mail")
		stopProfile()
		cpu, user := u1-u0+s1-s0, u1-u0
		stop()
		perMail := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 / float64(n) }
		var pgRate float64
		if slices.Contains(storetest.Backends(), "postgres") {
			// The same burst with the store in PostgreSQL (SERIALIZABLE, a lease-free leader).
			white, refTo, keys, refOut, stop := startReferee(b, n, 25*time.Millisecond, "postgres")
			stopProfile := profile(b, "REFEREED_BENCH_PG_CPUPROFILE") // PostgreSQL's burst alone
			retries, trips := store.Retries.Load(), store.RoundTrips.Load()
			server0 := procCPU("postgres")
			u0, s0 := cpuSplit()
			m0 := machineBusy()
			snapP := tasks()
			start := time.Now()
			burst(b, white, refTo, "pg")
			waitAnswered(b, refOut, keys, 2*time.Minute)
			byCommand("postgres", snapP, tasks(), n)
			pgRate = float64(n) / time.Since(start).Seconds()
			stopProfile()
			u1, s1 := cpuSplit()
			b.ReportMetric(perMail(machineBusy()-m0), "pg-machine-cpu-ms/mail")
			// The CPU a mail of this process (the harness's share taken out) and of the
			// database's processes: the machine's two cores are shared by all.
			b.ReportMetric(float64((u1-u0+s1-s0-harness).Microseconds())/1000/float64(n), "pg-referee-cpu-ms/mail")
			b.ReportMetric(float64((procCPU("postgres")-server0).Microseconds())/1000/float64(n), "pg-server-cpu-ms/mail")
			stop()
			b.ReportMetric(pgRate, "pg-referee-mails/s")
			b.ReportMetric(float64(store.Retries.Load()-retries)/float64(n), "pg-retries/mail")
			// Statements sent to the database per mail (a batch counts once): intake, the mail's
			// transaction, delivery and the lease, all told.
			b.ReportMetric(float64(store.RoundTrips.Load()-trips)/float64(n), "pg-trips/mail")
		}
		two2, _, _, twoMachine2 := runRaw("raw-two2", 2)
		twoRate, twoMachine = (twoRate+two2)/2, (twoMachine+twoMachine2)/2
		rate2, cpu2, user2, machine2 := runRaw("raw2", 1)
		rawRate, rawCPU, rawUser, rawMachine = (rawRate+rate2)/2, (rawCPU+cpu2)/2, (rawUser+user2)/2, (rawMachine+machine2)/2
		// The CPU the whole machine spent a mail (every process, the mail servers' and the
		// kernel's work included) in each pipeline's burst: the referee answers each move with
		// two mails, the raw consumer with one (or two, raw-two), and the mail servers' work
		// for them is most of it.
		b.ReportMetric(perMail(rawMachine), "raw-machine-cpu-ms/mail")
		b.ReportMetric(perMail(twoMachine), "raw-two-machine-cpu-ms/mail")
		b.ReportMetric(perMail(refMachine), "machine-cpu-ms/mail")
		b.ReportMetric(rawRate, "raw-mails/s")
		b.ReportMetric(twoRate, "raw-two-mails/s")
		b.ReportMetric(refRate, "referee-mails/s")
		b.ReportMetric(refRate/rawRate, "x-raw")
		// The mail work alone of answering a move with two mails, against one: the most a
		// referee's pipeline could reach in x-raw on this machine if its own work cost nothing.
		b.ReportMetric(twoRate/rawRate, "raw-two-x-raw")
		// Each pipeline against the raw consumer doing the same mail work (two answers a move).
		b.ReportMetric(refRate/twoRate, "x-raw-two")
		if pgRate > 0 {
			b.ReportMetric(pgRate/rawRate, "pg-x-raw")
			b.ReportMetric(pgRate/twoRate, "pg-x-raw-two")
		}
		// The metrics above are the last iteration's; each iteration's rates, for -benchtime Nx.
		fmt.Printf("run %d: mails/s raw %.1f, raw-two %.1f (%.2fx raw), bbolt %.1f (%.2fx raw, %.2fx raw-two), postgres %.1f (%.2fx raw, %.2fx raw-two)\n",
			i+1, rawRate, twoRate, twoRate/rawRate, refRate, refRate/rawRate, refRate/twoRate, pgRate, pgRate/rawRate, pgRate/twoRate)
		// CPU of this process per mail, the harness's share taken out.
		per := func(d time.Duration) float64 { return float64((d - harness).Microseconds()) / 1000 / float64(n) }
		b.ReportMetric(per(cpu), "referee-cpu-ms/mail")
		b.ReportMetric(per(rawCPU), "raw-cpu-ms/mail")
		b.ReportMetric(float64(harness.Microseconds())/1000/float64(n), "harness-cpu-ms/mail")
		// The referee's user CPU (its own computation); the rest is the kernel's work for its
		// mail I/O (two SMTP transactions per move, IMAP) and fsync.
		refUser := float64((user - harnessUser).Microseconds()) / 1000 / float64(n)
		b.ReportMetric(refUser, "referee-user-cpu-ms/mail")
		// The same for the raw consumer (IMAP in, one SMTP answer a mail, no store), and the
		// referee's against it: the yardstick of the machine's pace that day.
		rawUserMs := float64((rawUser - harnessUser).Microseconds()) / 1000 / float64(n)
		b.ReportMetric(rawUserMs, "raw-user-cpu-ms/mail")
		b.ReportMetric(refUser/rawUserMs, "user-x-raw")
	}
}

// procCPU is the user and system CPU time of the machine's processes whose command starts
// with name (from /proc; clock ticks of 10 ms, as Linux reports them to every process). A
// process that ends between two readings is not counted: the pool's connections last.
func procCPU(name string) time.Duration {
	var ticks int64
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		st, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		i, j := bytes.IndexByte(st, '('), bytes.LastIndexByte(st, ')')
		if i < 0 || j < i || j+2 > len(st) || !bytes.HasPrefix(st[i+1:j], []byte(name)) {
			continue
		}
		f := strings.Fields(string(st[j+2:])) // state, ppid, ...: utime and stime are the 12th and 13th
		if len(f) < 13 {
			continue
		}
		u, _ := strconv.ParseInt(f[11], 10, 64)
		s, _ := strconv.ParseInt(f[12], 10, 64)
		ticks += u + s
	}
	return time.Duration(ticks) * 10 * time.Millisecond
}

// machineBusy is the CPU time the machine's cores spent busy so far, from /proc/stat (user,
// nice, system, irq, softirq and steal, in clock ticks of 10 ms): every process's, the
// kernel's threads' and the interrupts'.
func machineBusy() time.Duration {
	st, err := os.ReadFile("/proc/stat")
	if err != nil {
		return 0
	}
	line, _, _ := bytes.Cut(st, []byte("\n"))
	var ticks int64
	for i, f := range strings.Fields(string(line))[1:] { // cpu user nice system idle iowait irq softirq steal guest ...
		if i == 3 || i == 4 || i >= 8 { // idle and iowait; guest time is counted in user
			continue
		}
		v, _ := strconv.ParseInt(f, 10, 64)
		ticks += v
	}
	return time.Duration(ticks) * 10 * time.Millisecond
}

// profile writes a CPU profile to the file the environment variable env names, until the
// function it returns is called; nothing when env is unset.
func profile(b *testing.B, env string) func() {
	path := os.Getenv(env)
	if path == "" {
		return func() {}
	}
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		b.Fatal(err)
	}
	return func() { pprof.StopCPUProfile(); f.Close() }
}

// BenchmarkLatency: at a gentle load (10 mails/s), the time from Postfix accepting a move to
// Postfix accepting its answers, for the raw consumer polling every 25 ms and for the referee
// (fast poll 10 ms), in the same run.
func BenchmarkLatency(b *testing.B) {
	needReal(b)
	const n = 60
	for i := 0; i < b.N; i++ {
		empty(b)
		rawOut := newTap(false, 1)
		ctx, cancel := context.WithCancel(context.Background())
		go rawConsumer(ctx, rawOut, 25*time.Millisecond, 1)
		from, to := make([]string, n), make([]string, n)
		for k := range to {
			from[k], to[k] = fmt.Sprintf("w%d@%s", k%20, domain), refAddr
		}
		rawLat := paced(b, rawOut, from, to, nil, "rawlat")
		cancel()
		time.Sleep(200 * time.Millisecond)

		// The referee polls every 10 ms while games are active (the issue's "IDLE plus a short
		// poll"); the raw consumer's 25 ms poll is the baseline it is measured against.
		white, refTo, keys, refOut, stop := startReferee(b, n, 10*time.Millisecond, "bolt")
		time.Sleep(300 * time.Millisecond) // connected
		refLat := paced(b, refOut, white, refTo, keys, "reflat")
		stop()
		b.ReportMetric(ms(pct(rawLat, 50)), "raw-p50-ms")
		b.ReportMetric(ms(pct(rawLat, 99)), "raw-p99-ms")
		b.ReportMetric(ms(pct(refLat, 50)), "referee-p50-ms")
		b.ReportMetric(ms(pct(refLat, 99)), "referee-p99-ms")
		b.ReportMetric(float64(pct(refLat, 50))/float64(pct(rawLat, 50)), "p50-x-raw")
	}
}

// paced sends one mail every 100 ms and returns each one's latency from SMTP accept to the
// SMTP accept of its answers. keys name the moves in the tap (nil: their Message-IDs).
func paced(b *testing.B, out *tap, from, to, keys []string, tag string) []time.Duration {
	c, err := smtp.Dial(smtpAddr)
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	sent := map[string]time.Time{}
	var ids []string
	for i := range to {
		id := fmt.Sprintf("%s.%d.%d@%s", tag, time.Now().UnixNano(), i, domain)
		raw := fmt.Sprintf("From: %s\r\nTo: %s\r\nSubject: move\r\nMessage-ID: <%s>\r\n\r\ne4\r\n", from[i], to[i], id)
		if err := c.SendMail(from[i], []string{to[i]}, strings.NewReader(raw)); err != nil {
			b.Fatal(err)
		}
		key := id
		if keys != nil {
			key = keys[i]
		}
		sent[key] = time.Now()
		ids = append(ids, key)
		time.Sleep(100 * time.Millisecond)
	}
	waitAnswered(b, out, ids, time.Minute)
	out.mu.Lock()
	defer out.mu.Unlock()
	var lat []time.Duration
	for _, k := range ids {
		lat = append(lat, out.accepted[k].Sub(sent[k]))
	}
	return lat
}

func pct(d []time.Duration, p int) time.Duration {
	s := append([]time.Duration(nil), d...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[(len(s)-1)*p/100]
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// tasks is the CPU time (clock ticks of 10 ms) of every thread of every process so far, by
// thread, when REFEREED_BENCH_PROCS is set (nil otherwise): byCommand then says, between
// two readings, which commands the machine's CPU went to (the mail servers' processes, the
// database's, this one's, the kernel's threads).
func tasks() map[string][2]int64 {
	if os.Getenv("REFEREED_BENCH_PROCS") == "" {
		return nil
	}
	out := map[string][2]int64{}
	procs, _ := os.ReadDir("/proc")
	for _, p := range procs {
		if p.Name()[0] < '0' || p.Name()[0] > '9' {
			continue
		}
		threads, _ := os.ReadDir("/proc/" + p.Name() + "/task")
		for _, th := range threads {
			st, err := os.ReadFile("/proc/" + p.Name() + "/task/" + th.Name() + "/stat")
			if err != nil {
				continue
			}
			i, j := bytes.IndexByte(st, '('), bytes.LastIndexByte(st, ')')
			if i < 0 || j < i || j+2 > len(st) {
				continue
			}
			comm := string(st[i+1 : j])
			if strings.HasPrefix(comm, "kworker") {
				comm = "kworker"
			}
			f := strings.Fields(string(st[j+2:])) // utime and stime are the 12th and 13th
			if len(f) < 13 {
				continue
			}
			u, _ := strconv.ParseInt(f[11], 10, 64)
			sy, _ := strconv.ParseInt(f[12], 10, 64)
			out[comm+"\x00"+p.Name()+"/"+th.Name()] = [2]int64{u, sy}
		}
	}
	return out
}

// byCommand prints the CPU a mail each command took between two readings of tasks (the
// twelve that took most), and all of them, user and system.
func byCommand(tag string, before, after map[string][2]int64, n int) {
	if after == nil {
		return
	}
	by := map[string]int64{}
	var total, system int64
	for k, v := range after {
		u, sy := v[0]-before[k][0], v[1]-before[k][1]
		comm, _, _ := strings.Cut(k, "\x00")
		by[comm] += u + sy
		total += u + sy
		system += sy
	}
	comms := slices.SortedFunc(maps.Keys(by), func(a, b string) int { return cmp.Compare(by[b], by[a]) })
	ms := func(ticks int64) float64 { return float64(ticks*10) / float64(n) }
	line := fmt.Sprintf("%s: every process %.1f ms a mail (system %.1f):", tag, ms(total), ms(system))
	for _, c := range comms[:min(12, len(comms))] {
		line += fmt.Sprintf(" %s %.2f", c, ms(by[c]))
	}
	fmt.Println(line)
}
