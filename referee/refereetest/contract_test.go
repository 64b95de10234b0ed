package refereetest_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/refereed/refereed/chess"
	"github.com/refereed/refereed/referee/refereetest"
	"github.com/refereed/refereed/variant"
	_ "github.com/refereed/refereed/variant/all"
)

// Every registered game keeps the contract by mail.
func TestContractEveryGame(t *testing.T) {
	for _, key := range variant.Keys() {
		t.Run(key, func(t *testing.T) { refereetest.Contract(t, key, variant.Options{}) })
	}
}

// A Script's steps other than replies: a mail made by the test (here a forged From, answered
// to nobody but the player it names) and a wait that runs the deadline check (a reminder to
// Black). Written once, the golden files then match a second run.
func TestScriptRawAndWait(t *testing.T) {
	dir := t.TempDir()
	script := refereetest.Script{Dir: dir, Game: "script", Key: "orthodox", Steps: []refereetest.Step{
		{Name: "move", Side: chess.White, Body: "e4"},
		{Name: "forged", Raw: func(h *refereetest.Harness, id uint64) []byte {
			return refereetest.Mail("mallory@evil.example", h.ReplyAddress(id, chess.Black), "x", "<m@evil.example>", "RESIGN")
		}},
		{Name: "reminder", Wait: 73 * time.Hour},
	}, Update: true}
	script.Run(t)
	for _, f := range []string{"script-02-forged-black.eml", "script-03-reminder-black.eml"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Error(err)
		}
	}
	if files, _ := filepath.Glob(filepath.Join(dir, "script-0[23]-*-white.eml")); len(files) != 0 {
		t.Errorf("White was written to: %v", files)
	}
	script.Update = false
	script.Run(t)
}
