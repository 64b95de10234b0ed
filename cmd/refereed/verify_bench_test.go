package main

import (
	"context"
	"encoding/json"
	"io"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/refereed/refereed/archive"
)

// bigBig is fixtures/pgns/big_big.pgn of github.com/corentings/chess/v2@v2.3.2: 10,000 real
// games, read from the module cache (go mod download), never copied into this repository.
func bigBig(tb testing.TB) string {
	out, err := exec.Command("go", "mod", "download", "-json", "github.com/corentings/chess/v2@v2.3.2").Output()
	if err != nil {
		tb.Skipf("corentings/chess module not available: %v", err)
	}
	var info struct{ Dir string }
	if err := json.Unmarshal(out, &info); err != nil || info.Dir == "" {
		tb.Skipf("go mod download: %s", out)
	}
	return filepath.Join(info.Dir, "fixtures", "pgns", "big_big.pgn")
}

// BenchmarkVerifyBigBig is refereed verify on big_big.pgn; bench/ runs it beside
// pgn-extract and corentings/chess's Scanner.
func BenchmarkVerifyBigBig(b *testing.B) {
	file := bigBig(b)
	for _, workers := range []int{1, 2} {
		b.Run(map[int]string{1: "j1", 2: "j2"}[workers], func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				bad := 0
				n, err := archive.VerifyFile(context.Background(), file, workers, func(v archive.Verdict) {
					if v.Invalid(false) {
						bad++
					}
				})
				if err != nil || n != 10000 || bad != 0 {
					b.Fatalf("games %d invalid %d err %v", n, bad, err)
				}
			}
			b.ReportMetric(float64(10000*b.N)/b.Elapsed().Seconds(), "games/s")
		})
	}
}

// BenchmarkRateBigBig is refereed rate on the same archive (monthly periods) beside verify
// alone, in the same run: each iteration verifies the archive, then rates it, one after the
// other, and reports each one's time (wall, and the process's CPU time, which the other work
// on a shared machine disturbs less) and rate's over verify's. The goal: rating adds under a
// fifth to verifying.
func BenchmarkRateBigBig(b *testing.B) {
	file := bigBig(b)
	cpu := func() time.Duration {
		var ru syscall.Rusage
		syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
		return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
	for _, workers := range []int{1, 2} {
		b.Run(map[int]string{1: "j1", 2: "j2"}[workers], func(b *testing.B) {
			var verifyWall, rateWall, verifyCPU, rateCPU time.Duration
			for i := 0; i < b.N; i++ {
				w0, c0 := time.Now(), cpu()
				n, err := archive.VerifyFile(context.Background(), file, workers, func(archive.Verdict) {})
				w1, c1 := time.Now(), cpu()
				res := rateArchives(context.Background(), rateOptions{period: "month", workers: workers}, []string{file}, io.Discard, io.Discard)
				w2, c2 := time.Now(), cpu()
				if err != nil || n != 10000 || res.games != 10000 || res.invalid != 0 || res.rated == 0 {
					b.Fatalf("verify %d %v; rate: games %d invalid %d rated %d", n, err, res.games, res.invalid, res.rated)
				}
				verifyWall, rateWall = verifyWall+w1.Sub(w0), rateWall+w2.Sub(w1)
				verifyCPU, rateCPU = verifyCPU+c1-c0, rateCPU+c2-c1
			}
			per := func(d time.Duration) float64 { return float64(d.Milliseconds()) / float64(b.N) }
			b.ReportMetric(per(verifyWall), "verify-ms/op")
			b.ReportMetric(per(rateWall), "rate-ms/op")
			b.ReportMetric(per(verifyCPU), "verify-cpu-ms/op")
			b.ReportMetric(per(rateCPU), "rate-cpu-ms/op")
			b.ReportMetric(float64(rateCPU)/float64(verifyCPU), "rate/verify-cpu")
		})
	}
}
