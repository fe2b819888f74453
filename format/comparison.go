package format

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// The comparisons of index.json name their sides by data (a GPU, a task)
// in their keys: they are written and read here, in the published key
// order, as encoding/json would write a struct of those fields.

// GPUKey is a GPU's key in a GPU comparison: its name in lower case
// ("H100" is "h100").
func GPUKey(gpu string) string { return strings.ToLower(gpu) }

// member is one name and value of a published object.
type member struct {
	name  string
	value any
}

// marshalObject writes the members as one JSON object, in their order, as
// encoding/json writes a struct (no HTML escaping; Marshal indents it).
func marshalObject(members ...member) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	b.WriteByte('{')
	for i, m := range members {
		if i > 0 {
			b.WriteByte(',')
		}
		if err := enc.Encode(m.name); err != nil {
			return nil, err
		}
		b.Truncate(b.Len() - 1) // the Encoder's newline
		b.WriteByte(':')
		if err := enc.Encode(m.value); err != nil {
			return nil, err
		}
		b.Truncate(b.Len() - 1)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// unmarshalObject reads one JSON object, strictly: each member is handed
// to set, which returns where to decode its value (nil for a name it does
// not know, an error); a name given twice is an error, and so is an
// unknown field in a member's value.
func unmarshalObject(data []byte, set func(name string) (any, error)) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return fmt.Errorf("not a JSON object")
	}
	seen := map[string]bool{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		name, _ := tok.(string)
		if seen[name] {
			return fmt.Errorf("key %q given twice", name)
		}
		seen[name] = true
		dst, err := set(name)
		if err != nil {
			return err
		}
		if err := dec.Decode(dst); err != nil {
			return fmt.Errorf("field %q: %w", name, err)
		}
	}
	_, err := dec.Token()
	return err
}

// MarshalJSON writes the comparison as index.json publishes it: slug, the
// two GPUs' rows under their keys, the ratio.
func (c GPUComparison) MarshalJSON() ([]byte, error) {
	if c.Over.Key == "" || c.Under.Key == "" || c.Over.Key == c.Under.Key {
		return nil, fmt.Errorf("format: the GPU comparison of %s has keys %q and %q", c.Slug, c.Over.Key, c.Under.Key)
	}
	return marshalObject(member{"slug", c.Slug}, member{c.Over.Key, c.Over.RowRef},
		member{c.Under.Key, c.Under.RowRef}, member{"energy_per_token_ratio", c.EnergyPerTokenRatio})
}

// UnmarshalJSON reads a published GPU comparison: the first GPU key is
// Over's, the second Under's; a third, or a member of another name, is an
// error.
func (c *GPUComparison) UnmarshalJSON(data []byte) error {
	if string(data) == "null" {
		return nil
	}
	var out GPUComparison
	err := unmarshalObject(data, func(name string) (any, error) {
		switch {
		case name == "slug":
			return &out.Slug, nil
		case name == "energy_per_token_ratio":
			return &out.EnergyPerTokenRatio, nil
		case out.Over.Key == "":
			out.Over.Key = name
			return &out.Over.RowRef, nil
		case out.Under.Key == "":
			out.Under.Key = name
			return &out.Under.RowRef, nil
		}
		return nil, fmt.Errorf("a third GPU %q in a GPU comparison", name)
	})
	if err != nil {
		return fmt.Errorf("gpu comparison: %w", err)
	}
	*c = out
	return nil
}

// MarshalJSON writes the comparison as index.json publishes it: slug,
// GPU, the two tasks' rows under their keys (the primary task's first),
// the ratios.
func (c TaskComparison) MarshalJSON() ([]byte, error) {
	base, ok := LookupTask(c.Base.Task)
	if !ok || !base.Primary {
		return nil, fmt.Errorf("format: the task comparison of %s on %s has base task %q, not the primary task", c.Slug, c.GPU, c.Base.Task)
	}
	other, ok := LookupTask(c.Other.Task)
	if !ok || other.Primary || !other.InIndex {
		return nil, fmt.Errorf("format: the task comparison of %s on %s compares task %q, which is not another task index.json compares", c.Slug, c.GPU, c.Other.Task)
	}
	return marshalObject(member{"slug", c.Slug}, member{"gpu", c.GPU},
		member{base.Key, c.Base.TaskRow}, member{other.Key, c.Other.TaskRow},
		member{"energy_per_response_ratio", c.EnergyPerResponseRatio}, member{"energy_per_token_ratio", c.EnergyPerTokenRatio})
}

// UnmarshalJSON reads a published task comparison: the key of a task
// index.json compares (Task.InIndex) names its side (the primary task's is Base); any other member is an
// error.
func (c *TaskComparison) UnmarshalJSON(data []byte) error {
	if string(data) == "null" {
		return nil
	}
	var out TaskComparison
	err := unmarshalObject(data, func(name string) (any, error) {
		switch name {
		case "slug":
			return &out.Slug, nil
		case "gpu":
			return &out.GPU, nil
		case "energy_per_response_ratio":
			return &out.EnergyPerResponseRatio, nil
		case "energy_per_token_ratio":
			return &out.EnergyPerTokenRatio, nil
		}
		t, ok := taskByKey(name)
		switch {
		case !ok || !t.InIndex:
			return nil, fmt.Errorf("unknown key %q", name)
		case t.Primary:
			out.Base.Task = t.ID
			return &out.Base.TaskRow, nil
		case out.Other.Task != "":
			return nil, fmt.Errorf("a second compared task %q", name)
		}
		out.Other.Task = t.ID
		return &out.Other.TaskRow, nil
	})
	if err != nil {
		return fmt.Errorf("task comparison: %w", err)
	}
	*c = out
	return nil
}
