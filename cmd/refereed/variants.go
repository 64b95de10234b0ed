package main

import (
	"context"
	"fmt"
	"sort"

	"github.com/refereed/refereed/variant"
)

func (m *Main) runVariants(ctx context.Context, args []string) int {
	for _, k := range variant.Keys() {
		v, _ := variant.Lookup(k)
		fmt.Fprintf(m.Stdout, "%-22s %s\n", k, v.Name)
		names := make([]string, 0, len(v.Options))
		for n := range v.Options {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			fmt.Fprintf(m.Stdout, "%-22s   --option %s: %s\n", "", n, v.Options[n])
		}
	}
	return exitOK
}
