package main

import (
	"strconv"

	"github.com/leadgreen/greentokens/catalog"
)

// numberValue is a flag that takes a batch or an intensity in the syntax
// every pricing surface reads (catalog.ParseNumber): pflag's float64 would
// take "Inf", "NaN" and "0x1p4", which the API refuses.
type numberValue struct{ p *float64 }

func (v numberValue) String() string { return strconv.FormatFloat(*v.p, 'g', -1, 64) }

func (v numberValue) Set(s string) error {
	f, err := catalog.ParseNumber(s)
	if err != nil {
		return err
	}
	*v.p = f
	return nil
}

func (v numberValue) Type() string { return "number" }

// gpuCountValue is a flag that takes a GPU count in the syntax every
// pricing surface reads (catalog.ParseGPUCount): pflag's int would read
// "0x2" as 2 and "010" as octal 8.
type gpuCountValue struct{ p *int }

func (v gpuCountValue) String() string { return strconv.Itoa(*v.p) }

func (v gpuCountValue) Set(s string) error {
	n, err := catalog.ParseGPUCount(s)
	if err != nil {
		return err
	}
	*v.p = n
	return nil
}

func (v gpuCountValue) Type() string { return "count" }
