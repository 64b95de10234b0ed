package mailer_test

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/refereed/refereed/mailer"
	"github.com/refereed/refereed/store"
)

// crashProbe is a transport that, before accepting each mail, looks at what the store has
// recorded as delivered: a crash at that instant would send again every accepted mail not
// recorded yet.
type crashProbe struct {
	db       *store.DB
	mu       sync.Mutex
	accepted int
	worst    int
}

func (p *crashProbe) Send(ctx context.Context, from string, to []string, raw []byte) error {
	p.mu.Lock() // no mail is accepted while the store is read: an exact count
	defer p.mu.Unlock()
	var recorded int
	p.db.View(func(tx *store.Tx) error {
		sent, _ := tx.SentMails()
		recorded = len(sent)
		return nil
	})
	if d := p.accepted - recorded + 1; d > p.worst { // + the one about to be accepted
		p.worst = d
	}
	p.accepted++
	return nil
}

// A crash re-sends at most one mail per delivery worker: each worker waits for its last
// delivery to be recorded (group commit) before it sends the next (issue: delivery
// duplicates after a crash).
func TestSenderCrashResendsAtMostOnePerWorker(t *testing.T) {
	db, err := store.Open(filepath.Join(t.TempDir(), "r.db"), store.Options{}) // real fsync: slow commits
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	const mails, workers = 200, 4
	if err := db.Update(func(tx *store.Tx) error {
		for i := 0; i < mails; i++ {
			if _, err := tx.Enqueue(store.OutMail{MessageID: fmt.Sprintf("m%d@x", i), To: []string{fmt.Sprintf("p%d@x", i)}, Raw: []byte("hi")}); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	probe := &crashProbe{db: db}
	s := &mailer.Sender{DB: db, Transport: probe, Parallel: workers, Log: slog.New(slog.DiscardHandler)}
	sent, _, err := s.Drain(context.Background())
	if err != nil || sent != mails {
		t.Fatalf("drain: %d sent, %v", sent, err)
	}
	if probe.worst > workers {
		t.Errorf("a crash could have sent %d mails again, want at most %d (one per worker)", probe.worst, workers)
	}
	t.Logf("worst case: %d mails accepted and not yet recorded", probe.worst)
}

// slowTransport accepts every mail after a delay, like an SMTP server's answer to DATA.
type slowTransport struct{ delay time.Duration }

func (t slowTransport) Send(ctx context.Context, from string, to []string, raw []byte) error {
	time.Sleep(t.delay)
	return nil
}

// Draining 200 mails with every delivery recorded durably (fsync), through a transport that
// answers in 1 ms: the group commit's throughput.
func BenchmarkDrain(b *testing.B) {
	for _, workers := range []int{4, 8} {
		b.Run(fmt.Sprintf("workers=%d", workers), func(b *testing.B) {
			const mails = 200
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				db, err := store.Open(filepath.Join(b.TempDir(), "r.db"), store.Options{})
				if err != nil {
					b.Fatal(err)
				}
				db.Update(func(tx *store.Tx) error {
					for j := 0; j < mails; j++ {
						tx.Enqueue(store.OutMail{MessageID: fmt.Sprintf("m%d@x", j), To: []string{fmt.Sprintf("p%d@x", j)}, Raw: []byte("hi")})
					}
					return nil
				})
				s := &mailer.Sender{DB: db, Transport: slowTransport{time.Millisecond}, Parallel: workers, Log: slog.New(slog.DiscardHandler)}
				b.StartTimer()
				if sent, _, err := s.Drain(context.Background()); err != nil || sent != mails {
					b.Fatalf("%d sent, %v", sent, err)
				}
				b.StopTimer()
				db.Close()
			}
			b.ReportMetric(float64(mails*b.N)/b.Elapsed().Seconds(), "mails/s")
		})
	}
}

// countingTransport accepts everything and counts each Message-ID it accepted.
type countingTransport struct {
	mu       sync.Mutex
	accepted map[string]int
	total    int
}

func (c *countingTransport) Send(ctx context.Context, from string, to []string, raw []byte) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.accepted == nil {
		c.accepted = map[string]int{}
	}
	c.accepted[string(raw)]++
	c.total++
	return nil
}

// With the disk full the store cannot record deliveries: delivery pauses with backoff, the
// mails already accepted are never sent again (however often the sender is woken), and once
// there is room again they are recorded and the rest goes out, each mail once. A real full
// filesystem: a small tmpfs (root only).
func TestSenderDiskFull(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("mounting a tmpfs needs root")
	}
	dir := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", dir).CombinedOutput(); err != nil {
		t.Skipf("cannot mount a tmpfs: %v %s", err, out)
	}
	defer exec.Command("umount", dir).Run()
	db, err := store.Open(filepath.Join(dir, "r.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	const mails = 40
	if err := db.Update(func(tx *store.Tx) error {
		for i := 0; i < mails; i++ {
			if _, err := tx.Enqueue(store.OutMail{MessageID: fmt.Sprintf("m%d@x", i), To: []string{fmt.Sprintf("p%d@x", i)},
				Raw: []byte(fmt.Sprintf("mail %d %s", i, strings.Repeat("x", 8000)))}); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	// Fill the disk.
	filler, err := os.Create(filepath.Join(dir, "filler"))
	if err != nil {
		t.Fatal(err)
	}
	chunk := make([]byte, 4096)
	for {
		if _, err := filler.Write(chunk); err != nil {
			break
		}
	}
	filler.Close()
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	tr := &countingTransport{}
	s := &mailer.Sender{DB: db, Transport: tr, Parallel: 4, Now: func() time.Time { return now }, Log: slog.New(slog.DiscardHandler)}
	_, next, err := s.Drain(context.Background())
	if err == nil {
		t.Fatal("deliveries recorded on a full disk?")
	}
	first := tr.total
	if first == 0 || first > 4 {
		t.Errorf("%d mails sent before the first failed record, want 1 to 4 (one per worker)", first)
	}
	if !next.After(now) {
		t.Errorf("no pause after a failed record: next %v", next)
	}
	for i := 0; i < 20; i++ { // woken by admin commands and timers, time passing
		now = now.Add(time.Minute)
		s.Drain(context.Background())
	}
	if tr.total != first {
		t.Errorf("%d mails sent while the disk was full, want %d: accepted mails sent again or more sent", tr.total, first)
	}
	os.Remove(filepath.Join(dir, "filler"))
	now = now.Add(10 * time.Minute)
	if _, _, err := s.Drain(context.Background()); err != nil {
		t.Fatalf("drain after the disk has room: %v", err)
	}
	if len(tr.accepted) != mails || tr.total != mails {
		t.Errorf("%d distinct mails in %d sends, want %d each once", len(tr.accepted), tr.total, mails)
	}
	db.View(func(tx *store.Tx) error {
		out, _ := tx.Outbox()
		sent, _ := tx.SentMails()
		if len(out) != 0 || len(sent) != mails {
			t.Errorf("outbox %d, sent %d, want 0 and %d", len(out), len(sent), mails)
		}
		return nil
	})
}

// jitteredTransport accepts each mail after a delay that differs from mail to mail, as a real
// server's answers do: the workers fall out of step. The delays are 1 to 5 ms, or from slow
// to five times slow when slow is set.
type jitteredTransport struct {
	n    atomic.Int64
	slow time.Duration
}

func (t *jitteredTransport) Send(ctx context.Context, from string, to []string, raw []byte) error {
	unit := t.slow / 5
	if unit == 0 {
		unit = time.Millisecond
	}
	time.Sleep(time.Duration(5+t.n.Add(1)*7%21) * unit / 5)
	return nil
}

// The outcomes of a burst are recorded a few workers' at a time, not one commit a mail: the
// recorder waits a moment for the workers still sending (group commit). 96 mails over 8
// workers whose sends take 1 to 5 ms are 12 rounds of sends: with a wait longer than a send
// (50 ms here, so that a loaded machine's scheduling cannot split a round) they take about a
// commit a round; without one, a commit for about every two mails. With the default wait,
// which follows the server, a server five times slower (its own fsync, a relay's round
// trips) is waited for as long. Each mail is still recorded as delivered once, and a worker
// still waits for its last outcome before sending again.
func TestSenderGroupsOutcomes(t *testing.T) {
	commits := func(wait, slow time.Duration) int64 {
		db, err := store.Open(filepath.Join(t.TempDir(), "r.db"), store.Options{})
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		const mails = 96
		db.Update(func(tx *store.Tx) error {
			for j := 0; j < mails; j++ {
				tx.Enqueue(store.OutMail{MessageID: fmt.Sprintf("m%d@x", j), To: []string{fmt.Sprintf("p%d@x", j)}, Raw: []byte("hi")})
			}
			return nil
		})
		s := &mailer.Sender{DB: db, Transport: &jitteredTransport{slow: slow}, Parallel: 8, RecordWait: wait, Log: slog.New(slog.DiscardHandler)}
		c0 := store.Commits.Load()
		if sent, _, err := s.Drain(context.Background()); err != nil || sent != mails {
			t.Fatalf("%d sent, %v", sent, err)
		}
		c := store.Commits.Load() - c0
		db.View(func(tx *store.Tx) error {
			sent, _ := tx.SentMails()
			out, _ := tx.Outbox()
			if len(sent) != mails || len(out) != 0 {
				t.Errorf("%d recorded as sent and %d left in the outbox, want %d and 0", len(sent), len(out), mails)
			}
			return nil
		})
		return c
	}
	eager, grouped := commits(-1, 0), commits(50*time.Millisecond, 0)
	t.Logf("96 mails, 8 workers: %d commits with no wait, %d with a 50 ms wait", eager, grouped)
	if grouped > 24 {
		t.Errorf("%d commits for 96 mails with a 50 ms wait: want at most 24 (a commit for every 4 mails; 12 rounds of sends)", grouped)
	}
	following := commits(0, 20*time.Millisecond) // sends of 4 to 20 ms: more than a fixed 5 ms
	t.Logf("the same with sends of 4 to 20 ms and the default wait: %d commits", following)
	if following > 24 {
		t.Errorf("%d commits for 96 mails whose sends take 4 to 20 ms, with the default wait: want at most 24", following)
	}
}

// BenchmarkSendCPU is the delivery side's own work on a mail, in process: each op is one
// mail of a real mail's size taken from the outbox, handed to a transport that accepts it
// after 1 to 5 ms (a server on the same machine) or 4 to 20 ms (a server that fsyncs on a
// busy disk, or a relay further away), and recorded as delivered (its copy compressed for
// keeping), on a real bbolt file with fsync. It reports the process's user CPU a mail
// (user-ms/op), the collector's included, and the commits a mail, with the record's wait
// fixed at 5 ms and following the server (the default).
func BenchmarkSendCPU(b *testing.B) {
	raw, err := os.ReadFile("../variant/transactional/testdata/golden/tx-05-help-board-history-black.eml")
	if err != nil {
		b.Fatal(err)
	}
	for _, server := range []struct {
		name string
		slow time.Duration
	}{{"server=1-5ms", 0}, {"server=4-20ms", 20 * time.Millisecond}} {
		for _, wait := range []struct {
			name string
			d    time.Duration
		}{{"wait=5ms", 5 * time.Millisecond}, {"wait=follows", 0}} {
			b.Run(server.name+"/"+wait.name, func(b *testing.B) {
				db, err := store.Open(filepath.Join(b.TempDir(), "r.db"), store.Options{})
				if err != nil {
					b.Fatal(err)
				}
				defer db.Close()
				s := &mailer.Sender{DB: db, Transport: &jitteredTransport{slow: server.slow}, RecordWait: wait.d, Log: slog.New(slog.DiscardHandler)}
				var commits int64
				const burst = 54 // a referee batch's mails
				var user time.Duration
				for done := 0; done < b.N; done += burst {
					b.StopTimer()
					db.Update(func(tx *store.Tx) error {
						for j := 0; j < burst; j++ {
							tx.Enqueue(store.OutMail{MessageID: fmt.Sprintf("m%d.%d@x", done, j), To: []string{fmt.Sprintf("p%d@x", j)}, Raw: raw, Created: time.Now()})
						}
						return nil
					})
					u0, c0 := userCPU(), store.Commits.Load()
					b.StartTimer()
					if _, _, err := s.Drain(context.Background()); err != nil {
						b.Fatal(err)
					}
					b.StopTimer()
					user += userCPU() - u0
					commits += store.Commits.Load() - c0
				}
				b.ReportMetric(float64(user.Microseconds())/1000/float64(b.N), "user-ms/op")
				b.ReportMetric(float64(commits)/float64(b.N), "commits/op")
			})
		}
	}
}

func userCPU() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano())
}
