package build

import (
	"github.com/leadgreen/greentokens/format"
	"github.com/leadgreen/greentokens/internal/sourcetext"
	"github.com/leadgreen/greentokens/render"
)

// licence is the manifest's licence block of the release of date: the
// index's own licence (text, sourcetext's licence.json) and, as its
// attribution, the citation the release's pages print ("Cite as"), so
// that the two are one text.
func licence(text sourcetext.Licence, date string) (*format.Licence, error) {
	cite, err := render.CiteAs(date, "")
	if err != nil {
		return nil, err
	}
	return &format.Licence{ID: text.ID, Name: text.Name, URL: text.URL, Scope: text.Scope, Attribution: cite}, nil
}
