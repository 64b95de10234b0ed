package refereetest_test

import (
	"testing"

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
