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
