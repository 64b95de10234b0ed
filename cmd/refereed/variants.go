package main

import (
	"context"
	"fmt"

	"github.com/refereed/refereed/variant"
)

func (m *Main) runVariants(ctx context.Context, args []string) int {
	for _, k := range variant.Keys() {
		v, _ := variant.Lookup(k)
		fmt.Fprintf(m.Stdout, "%-22s %s\n", k, v.Name)
	}
	return exitOK
}
