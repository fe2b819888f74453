package transform

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/go-json-experiment/json/jsontext"
)

// checkDuplicateKeys fails when an object of the JSON document data has
// two members of one name (encoding/json would keep the last value
// silently), naming the object ("configurations[2]"), the name, and the
// line and column of the second. Syntax errors are the decoders' to
// report, and are not reported here.
func checkDuplicateKeys(data []byte) error {
	err := jsontext.NewDecoder(bytes.NewReader(data)).SkipValue()
	var se *jsontext.SyntacticError
	if !errors.As(err, &se) || !errors.Is(se.Err, jsontext.ErrDuplicateName) {
		return nil
	}
	var where strings.Builder
	for tok := range se.JSONPointer.Parent().Tokens() {
		if _, err := strconv.Atoi(tok); err == nil {
			fmt.Fprintf(&where, "[%s]", tok)
		} else {
			if where.Len() > 0 {
				where.WriteByte('.')
			}
			where.WriteString(tok)
		}
	}
	if where.Len() > 0 {
		where.WriteString(": ")
	}
	line, col := position(data, se.ByteOffset)
	return fmt.Errorf("%sduplicate key %q at line %d, column %d: the last value would win silently", where.String(), se.JSONPointer.LastToken(), line, col)
}
