package main

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// plainText refuses a flag value that pages, grid.json or logs would show
// and that holds a control character (a line break, a tab, an escape
// sequence) or bytes that are not UTF-8. Markup characters are accepted:
// the pages escape them.
func plainText(flag, value string) error {
	if !utf8.ValidString(value) {
		return usageError{fmt.Sprintf("--%s %q is not UTF-8 text", flag, value)}
	}
	if i := strings.IndexFunc(value, unicode.IsControl); i >= 0 {
		r, _ := utf8.DecodeRuneInString(value[i:])
		return usageError{fmt.Sprintf("--%s %q holds the control character %U at byte %d", flag, value, r, i)}
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

// termText is upstream text (a model's name or id, a grid's name) as a
// table on the terminal shows it: each control character becomes U+FFFD,
// so that an escape sequence cannot drive the operator's terminal and a
// tab or line break cannot break the table's columns. Upstream JSON may
// carry them (a nickname is data); the JSON output keeps them, escaped.
func termText(s string) string { return replaceControls(s, "") }

// termLines is termText for a text of several lines (diff's report): its
// line breaks stay.
func termLines(s string) string { return replaceControls(s, "\n") }

// replaceControls replaces each control character of s but those in keep
// with U+FFFD.
func replaceControls(s, keep string) string {
	control := func(r rune) bool { return unicode.IsControl(r) && !strings.ContainsRune(keep, r) }
	if strings.IndexFunc(s, control) < 0 {
		return s
	}
	return strings.Map(func(r rune) rune {
		if control(r) {
			return utf8.RuneError
		}
		return r
	}, s)
}
