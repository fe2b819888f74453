package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/pflag"

	"github.com/leadgreen/greentokens/catalog"
)

// parsedValue is a flag whose text a catalog parser reads, so that the
// command line takes a number in the syntax the API takes it in.
type parsedValue[T any] struct {
	p     *T
	parse func(string) (T, error)
	typ   string
	// given is the text last set, as given: a number the catalog refuses
	// as out of range is quoted as typed (numberFlagError), "1e-7", not
	// "1e-07".
	given string
}

// numberValue is a batch or an intensity (catalog.ParseNumber): pflag's
// float64 would take "Inf", "NaN" and "0x1p4", which the API refuses.
func numberValue(p *float64) *parsedValue[float64] {
	return &parsedValue[float64]{p: p, parse: catalog.ParseNumber, typ: "number"}
}

// gpuCountValue is a GPU count (catalog.ParseGPUCount): pflag's int would
// read "0x2" as 2 and "010" as octal 8.
func gpuCountValue(p *int) *parsedValue[int] {
	return &parsedValue[int]{p: p, parse: catalog.ParseGPUCount, typ: "count"}
}

func (v *parsedValue[T]) String() string { return fmt.Sprint(*v.p) }

func (v *parsedValue[T]) Set(s string) error {
	x, err := v.parse(s)
	if err != nil {
		return err
	}
	*v.p = x
	v.given = s
	return nil
}

func (v *parsedValue[T]) Type() string { return v.typ }

// Given returns the text last set, as given.
func (v *parsedValue[T]) Given() string { return v.given }

// numberFlagError returns the catalog's refusal of a number out of range
// (1e-7 for --batch) in pflag's words for a value that is not a number,
// naming the flag and the value as given:
//
//	invalid argument "1e-7" for "--batch" flag: batch must be a number from 1e-06 to 100000
//
// It returns nil for any other error.
func numberFlagError(flags *pflag.FlagSet, err error) error {
	var ce *catalog.Error
	if !errors.As(err, &ce) || ce.Kind != catalog.Invalid {
		return nil
	}
	// The flag of the catalog's parameter: num_gpus is --num-gpus. Only
	// the number flags (parsedValue) keep their text as given.
	f := flags.Lookup(strings.ReplaceAll(ce.What, "_", "-"))
	if f == nil || !f.Changed {
		return nil
	}
	v, ok := f.Value.(interface{ Given() string })
	if !ok {
		return nil
	}
	return usagef("invalid argument %q for %q flag: %s", v.Given(), "--"+f.Name, ce.Error())
}
