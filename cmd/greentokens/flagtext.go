package main

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/leadgreen/greentokens/internal/printable"
	"github.com/leadgreen/greentokens/internal/sourcetext"
)

// plainText refuses a flag value that pages, grid.json or logs would show
// and that holds a character printable.String would escape (a control
// character such as a line break, a tab or an escape sequence; a format
// character such as a bidi override) or bytes that are not UTF-8. Markup
// characters are accepted: the pages escape them.
func plainText(flag, value string) error {
	if !utf8.ValidString(value) {
		return usageError{fmt.Sprintf("--%s %q is not UTF-8 text", flag, value)}
	}
	if printable.Plain(value) {
		return nil
	}
	i := strings.IndexFunc(value, func(r rune) bool { return !printable.Plain(string(r)) })
	r, _ := utf8.DecodeRuneInString(value[i:])
	kind := "control"
	if !unicode.IsControl(r) {
		kind = "invisible"
	}
	return usageError{fmt.Sprintf("--%s %q holds the %s character %U at byte %d", flag, value, kind, r, i)}
}

// checkEmberRelease refuses an --ember-release that grid.json could not
// record as given: text that is not plain (plainText), or another spelling
// of the reviewed words grid.json records when no release is named ("Not
// stated", " not stated"), which the checker reads as those words
// (validate's gridRelease) and so would fail the build at its check.
func checkEmberRelease(name string) error {
	if err := plainText("ember-release", name); err != nil {
		return err
	}
	text, err := sourcetext.Load()
	if err != nil {
		return err
	}
	none := text.Ember.ReleaseNotStated
	if name != none && strings.EqualFold(strings.TrimSpace(name), none) {
		return usagef("--ember-release %q is another spelling of %q, which grid.json records when no release is named: leave the flag out", name, none)
	}
	return nil
}

// yearValue is a flag that takes a year as YYYY, in decimal: pflag's int
// would read "0x7e8" as 2024 and "0024" as octal 20.
type yearValue struct{ p *int }

func (y yearValue) String() string {
	if *y.p == 0 {
		return ""
	}
	return strconv.Itoa(*y.p)
}

func (y yearValue) Set(s string) error {
	n, err := strconv.Atoi(s)
	if err != nil || len(s) != 4 || n < 1000 || strings.TrimLeft(s, "0123456789") != "" {
		return fmt.Errorf("%q is not a year (YYYY)", s)
	}
	*y.p = n
	return nil
}

func (y yearValue) Type() string { return "YEAR" }
