package exports

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/leadgreen/greentokens/schemas"
)

// describe returns the description of each named field of the JSON
// Schema's object at the JSON pointer at ("/$defs/configuration"): the
// descriptions the exports' Table Schemas repeat. A field without one is
// an error.
func describe(schema, at string, fields []string) (map[string]string, error) {
	b, err := schemas.Read(schema)
	if err != nil {
		return nil, err
	}
	var doc map[string]any
	if err := json.Unmarshal(b, &doc); err != nil {
		return nil, fmt.Errorf("%s: %w", schema, err)
	}
	obj, _ := pointer(doc, at).(map[string]any)
	props, _ := obj["properties"].(map[string]any)
	out := map[string]string{}
	for _, f := range fields {
		p, _ := props[f].(map[string]any)
		d, _ := p["description"].(string)
		if d == "" {
			return nil, fmt.Errorf("schemas/%s: %s has no description of %s", schema, at, f)
		}
		out[f] = d
	}
	return out, nil
}

// pointer returns the value at the JSON pointer p (RFC 6901, without
// escapes, which the schemas' names do not need) in doc, or nil.
func pointer(doc any, p string) any {
	for _, k := range strings.Split(strings.TrimPrefix(p, "/"), "/") {
		if k == "" {
			continue
		}
		m, _ := doc.(map[string]any)
		doc = m[k]
	}
	return doc
}
