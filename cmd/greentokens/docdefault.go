package main

import "github.com/spf13/pflag"

// docDefaultKey is the flag annotation holding the default that the
// command-line reference (docs/cli.md) prints in place of the flag's
// actual one, where that depends on the clock or the environment: the
// reference says "today (UTC)", not the date it was generated on.
const docDefaultKey = "greentokens-doc-default"

// printDefault sets the default that the reference prints for the flag
// name of fs.
func printDefault(fs *pflag.FlagSet, name, text string) {
	if err := fs.SetAnnotation(name, docDefaultKey, []string{text}); err != nil {
		panic(err) // a flag of that name is defined just before; a typo is a bug
	}
}
