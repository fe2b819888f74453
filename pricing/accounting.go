package pricing

import (
	"sync"

	"github.com/leadgreen/greentokens/internal/sourcetext"
)

// Accounting is what every carbon answer says of its accounting, in the
// Software Carbon Intensity's terms (SCI = (E x I + M) per R, ISO/IEC
// 21031:2024): what the energy priced (E) includes, and that the embodied
// emissions (M) are not included. Its text is internal/sourcetext's
// carbon.json, reviewed there.
type Accounting struct {
	// Standard names the specification and its formula.
	Standard string `json:"standard"`
	// Energy says what E includes: the GPU energy measured upstream, times
	// the PUE given.
	Energy string `json:"energy"`
	// Embodied says that M is not included.
	Embodied string `json:"embodied"`
	// EmbodiedIncluded is false: no price includes M.
	EmbodiedIncluded bool `json:"embodied_included"`
}

// SCI returns the accounting every carbon answer states. The embedded text
// is the binary's own: text that does not load is a mistake every test
// meets, so it panics.
func SCI() Accounting { return accounting() }

var accounting = sync.OnceValue(func() Accounting {
	text, err := sourcetext.Load()
	if err != nil {
		panic("pricing: " + err.Error())
	}
	c := text.Carbon
	return Accounting{Standard: c.Standard, Energy: c.Energy, Embodied: c.Embodied}
})
