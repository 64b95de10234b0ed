package main

import (
	"context"
	"encoding/json"
	"io"
	"os/exec"
	"path/filepath"
	"testing"

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

// BenchmarkRateBigBig is refereed rate on the same archive (monthly periods), to be read
// beside BenchmarkVerifyBigBig in the same run: rating should add under a fifth to verifying.
func BenchmarkRateBigBig(b *testing.B) {
	file := bigBig(b)
	for _, workers := range []int{1, 2} {
		b.Run(map[int]string{1: "j1", 2: "j2"}[workers], func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				res := rateArchives(context.Background(), rateOptions{period: "month", workers: workers}, []string{file}, io.Discard, io.Discard)
				if res.games != 10000 || res.invalid != 0 || res.rated == 0 {
					b.Fatalf("games %d invalid %d rated %d", res.games, res.invalid, res.rated)
				}
			}
			b.ReportMetric(float64(10000*b.N)/b.Elapsed().Seconds(), "games/s")
		})
	}
}
