package format

import (
	"bytes"
	"encoding/json"
)

// Marshal returns the published bytes of a file: two-space indentation,
// keys in the structs' order (sorted for maps), no HTML escaping, numbers
// as Float prints them, and no trailing newline (encoding/json's Encoder
// with SetIndent). The API's answers, the MCP server's text content and
// the command's JSON are printed with it too.
func Marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}
