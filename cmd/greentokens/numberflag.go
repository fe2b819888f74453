package main

import (
	"fmt"

	"github.com/leadgreen/greentokens/catalog"
)

// parsedValue is a flag whose text a catalog parser reads, so that the
// command line takes a number in the syntax the API takes it in.
type parsedValue[T any] struct {
	p     *T
	parse func(string) (T, error)
	typ   string
}

// numberValue is a batch or an intensity (catalog.ParseNumber): pflag's
// float64 would take "Inf", "NaN" and "0x1p4", which the API refuses.
func numberValue(p *float64) parsedValue[float64] {
	return parsedValue[float64]{p, catalog.ParseNumber, "number"}
}

// gpuCountValue is a GPU count (catalog.ParseGPUCount): pflag's int would
// read "0x2" as 2 and "010" as octal 8.
func gpuCountValue(p *int) parsedValue[int] {
	return parsedValue[int]{p, catalog.ParseGPUCount, "count"}
}

func (v parsedValue[T]) String() string { return fmt.Sprint(*v.p) }

func (v parsedValue[T]) Set(s string) error {
	x, err := v.parse(s)
	if err != nil {
		return err
	}
	*v.p = x
	return nil
}

func (v parsedValue[T]) Type() string { return v.typ }
