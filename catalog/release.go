package catalog

import (
	"context"

	"github.com/leadgreen/greentokens/snapshots/store"
)

// Release is the snapshot as the store's readers read a loaded release
// (store.Load's Models and Grid), over the files held in memory: what
// snapshots/diff compares, for a surface that serves the history of the
// releases it holds. Its manifest is read again from memory and must be the
// one that was verified; the archived Ember CSV, which the catalog does not
// hold, is listed but cannot be read through it (diff does not read it).
func (s *Snapshot) Release(ctx context.Context) (*store.Release, error) {
	rel, err := store.Open(ctx, s.FS(), s.Date)
	if err != nil {
		return nil, invalidSnapshot(s.Date, err)
	}
	for _, m := range s.Models {
		e := m.Entry()
		e.Best = nil // as store.Load records it
		rel.Models[m.Slug] = e
	}
	rel.Grid = s.Grid
	return rel, nil
}
