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
			o := v.Options[n]
			fmt.Fprintf(m.Stdout, "%-22s   --option %s=%s: %s\n", "", n, optionValue(o.Type), o.Doc)
		}
	}
	return exitOK
}

// optionValue is how a value of type t is written in `--option NAME=VALUE`.
func optionValue(t variant.OptionType) string {
	if t == variant.Bool {
		return "true|false"
	}
	return "N"
}
