package main

import (
	"fmt"
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

// termText is upstream text (a model's name or id, a grid's name) as a
// table on the terminal shows it: each control character becomes U+FFFD,
// so that an escape sequence cannot drive the operator's terminal and a
// tab or line break cannot break the table's columns. Upstream JSON may
// carry them (a nickname is data); the JSON output keeps them, escaped.
func termText(s string) string {
	if strings.IndexFunc(s, unicode.IsControl) < 0 {
		return s
	}
	return strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return utf8.RuneError
		}
		return r
	}, s)
}
