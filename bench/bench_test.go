package bench

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/corentings/chess/v2"
)

var refereedBin string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "refereed-bench")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	refereedBin = filepath.Join(dir, "refereed")
	build := exec.Command("go", "build", "-o", refereedBin, "./cmd/refereed")
	build.Dir = ".." // the main module, built as a user builds it
	if out, err := build.CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "build refereed: %v\n%s", err, out)
		os.Exit(2)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// bigBig is big_big.pgn from the corentings/chess module zip in the module cache.
func bigBig(b *testing.B) string {
	out, err := exec.Command("go", "mod", "download", "-json", "github.com/corentings/chess/v2@v2.3.2").Output()
	var info struct{ Dir string }
	if err != nil || json.Unmarshal(out, &info) != nil {
		b.Fatalf("go mod download: %v %s", err, out)
	}
	return filepath.Join(info.Dir, "fixtures", "pgns", "big_big.pgn")
}

func peer(b *testing.B, name string) string {
	for _, dir := range []string{"/usr/games", "/usr/bin"} {
		if p := filepath.Join(dir, name); fileExists(p) {
			return p
		}
	}
	if p, err := exec.LookPath(name); err == nil {
		return p
	}
	b.Skipf("%s is not installed (apt-get install %s; ./run does it)", name, name)
	return ""
}

func fileExists(p string) bool { _, err := os.Stat(p); return err == nil }

func timeRun(b *testing.B, cmd *exec.Cmd) time.Duration {
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = io.Discard, &stderr
	start := time.Now()
	if err := cmd.Run(); err != nil {
		b.Fatalf("%s: %v\n%s", cmd.Path, err, stderr.String())
	}
	return time.Since(start)
}

// BenchmarkVerify runs, in each iteration (a round), `refereed verify` (all cores, the
// default), `refereed verify -j 1`, `refereed verify` on one core (GOMAXPROCS=1: its reader
// and its replay share the core), `pgn-extract -s -o /dev/null`, and a program that reads
// every game with corentings/chess's Scanner (ParseNext, which replays the moves), on the
// same 10,000 games. Rounds interleave the tools; each figure is the median round. Metrics:
// games/s of each and refereed's ratio to each peer.
func BenchmarkVerify(b *testing.B) {
	file := bigBig(b)
	pgnExtract := peer(b, "pgn-extract")
	const games = 10000
	var ref, ref1, refCPU1, pe, cs []time.Duration
	for i := 0; i < b.N; i++ {
		ref = append(ref, timeRun(b, exec.Command(refereedBin, "verify", file)))
		ref1 = append(ref1, timeRun(b, exec.Command(refereedBin, "verify", "-j", "1", file)))
		oneCPU := exec.Command(refereedBin, "verify", file)
		oneCPU.Env = append(os.Environ(), "GOMAXPROCS=1")
		refCPU1 = append(refCPU1, timeRun(b, oneCPU))
		pe = append(pe, timeRun(b, exec.Command(pgnExtract, "-s", "-o", "/dev/null", file)))
		start := time.Now()
		if n := scanCorentings(b, file); n != games {
			b.Fatalf("corentings scanner read %d games", n)
		}
		cs = append(cs, time.Since(start))
	}
	gps := func(d []time.Duration) float64 { return games / median(d).Seconds() }
	ratio := func(peer, d []time.Duration) float64 { return median(peer).Seconds() / median(d).Seconds() }
	b.ReportMetric(gps(ref), "refereed-games/s")
	b.ReportMetric(gps(ref1), "refereed-j1-games/s")
	b.ReportMetric(gps(refCPU1), "refereed-1cpu-games/s")
	b.ReportMetric(gps(pe), "pgn-extract-games/s")
	b.ReportMetric(gps(cs), "corentings-games/s")
	b.ReportMetric(ratio(pe, ref), "x-pgn-extract")
	b.ReportMetric(ratio(pe, ref1), "j1-x-pgn-extract")
	b.ReportMetric(ratio(pe, refCPU1), "1cpu-x-pgn-extract")
	b.ReportMetric(ratio(cs, ref), "x-corentings")
}

// median returns the middle duration (the upper one of an even count).
func median(d []time.Duration) time.Duration {
	s := slices.Clone(d)
	slices.Sort(s)
	return s[len(s)/2]
}

func scanCorentings(b *testing.B, file string) int {
	f, err := os.Open(file)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	sc := chess.NewScanner(f)
	n := 0
	for sc.HasNext() {
		if _, err := sc.ParseNext(); err != nil {
			b.Fatalf("corentings game %d: %v", n+1, err)
		}
		n++
	}
	return n
}

// BenchmarkPerft6 runs `refereed perft 6` and fairy-stockfish's `go perft 6` from the start
// position in each iteration. Both are single-threaded; times include process start.
func BenchmarkPerft6(b *testing.B) {
	fs := peer(b, "fairy-stockfish")
	const nodes = 119060324
	var ref, fsd time.Duration
	for i := 0; i < b.N; i++ {
		ref += timeRun(b, exec.Command(refereedBin, "perft", "6"))
		cmd := exec.Command(fs)
		cmd.Stdin = strings.NewReader("position startpos\ngo perft 6\nquit\n")
		fsd += timeRun(b, cmd)
	}
	b.ReportMetric(float64(nodes*b.N)/ref.Seconds(), "refereed-nodes/s")
	b.ReportMetric(float64(nodes*b.N)/fsd.Seconds(), "fairy-stockfish-nodes/s")
	b.ReportMetric(fsd.Seconds()/ref.Seconds(), "x-fairy-stockfish")
}
