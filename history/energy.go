package history

import (
	"bytes"
	"encoding/json"

	"github.com/leadgreen/greentokens/format"
)

// A point's energy is published under the key named for its task's unit,
// as every answer of a task publishes it (format.Task.EnergyKey): a token
// task's points carry wh_per_million_output_tokens and no other key, an
// image task's wh_per_image, a video task's wh_per_video, each null when
// the GPU has no index row in the release.

// energyKeys are a point's energy keys on the wire: the task's key set,
// to a null figure when there is no row, the others left out.
type energyKeys struct {
	Tokens **format.Float `json:"wh_per_million_output_tokens,omitempty"`
	Image  **format.Float `json:"wh_per_image,omitempty"`
	Video  **format.Float `json:"wh_per_video,omitempty"`
}

// energyOf returns the keys of the figure wh in a task of kind.
func energyOf(kind format.Kind, wh *format.Float) energyKeys {
	switch kind {
	case format.Images:
		return energyKeys{Image: &wh}
	case format.Videos:
		return energyKeys{Video: &wh}
	}
	return energyKeys{Tokens: &wh}
}

// kindOf is the kind of a point's task: the one the builder set, or, for
// a point decoded from JSON, the kind whose key holds a figure.
func kindOf(kind format.Kind, image, video *format.Float) format.Kind {
	switch {
	case kind != format.Tokens:
		return kind
	case image != nil:
		return format.Images
	case video != nil:
		return format.Videos
	}
	return format.Tokens
}

// whOf is the energy of a point whose task is of kind, among its three
// fields; nil without a row.
func whOf(kind format.Kind, tokens, image, video *format.Float) *format.Float {
	switch kindOf(kind, image, video) {
	case format.Images:
		return image
	case format.Videos:
		return video
	}
	return tokens
}

// Wh is the point's energy per its task's unit; nil without a row.
func (p *Point) Wh() *format.Float { return whOf(p.Kind, p.WhPerMillion, p.WhPerImage, p.WhPerVideo) }

// setWh sets the point's energy under its task's field.
func (p *Point) setWh(wh *format.Float) {
	switch p.Kind {
	case format.Images:
		p.WhPerImage = wh
	case format.Videos:
		p.WhPerVideo = wh
	default:
		p.WhPerMillion = wh
	}
}

// MarshalJSON writes the point with its energy under its task's key only.
func (p Point) MarshalJSON() ([]byte, error) {
	return marshal(struct {
		Release  string  `json:"release"`
		Compiled string  `json:"compiled"`
		RowID    *string `json:"row_id"`
		NumGPUs  *int    `json:"num_gpus"`
		energyKeys
		Change                *string       `json:"change"`
		RelativeChangePercent *format.Float `json:"relative_change_percent"`
		Why                   []Reason      `json:"why"`
	}{p.Release, p.Compiled, p.RowID, p.NumGPUs, energyOf(kindOf(p.Kind, p.WhPerImage, p.WhPerVideo), p.Wh()),
		p.Change, p.RelativeChangePercent, p.Why})
}

// Wh is the compact point's energy per its task's unit; nil without a row.
func (p *CompactPoint) Wh() *format.Float {
	return whOf(p.Kind, p.WhPerMillion, p.WhPerImage, p.WhPerVideo)
}

// MarshalJSON writes the compact point with its energy under its task's
// key only.
func (p CompactPoint) MarshalJSON() ([]byte, error) {
	return marshal(struct {
		Release  string `json:"release"`
		Compiled string `json:"compiled"`
		energyKeys
		Why []string `json:"why"`
	}{p.Release, p.Compiled, energyOf(kindOf(p.Kind, p.WhPerImage, p.WhPerVideo), p.Wh()), p.Why})
}

// marshal is v as JSON without HTML escaping: the encoder that calls a
// MarshalJSON escapes what it is set to escape.
func marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}
