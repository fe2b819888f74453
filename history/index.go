package history

import (
	"context"
	"sync"

	"github.com/leadgreen/greentokens/catalog"
	"github.com/leadgreen/greentokens/format"
)

// Index answers histories and feeds from the releases a catalog serves,
// for the surfaces that serve them (the API, the MCP server, the site). A
// served release never changes, so what it reads of one release (its task
// rows) and of two consecutive ones (their diff) is kept, by the sha256 of
// their manifests: a request reads what it has not read yet, once. It is
// safe for concurrent use.
type Index struct {
	cat *catalog.Catalog

	mu     sync.Mutex
	parsed map[parseKey]*parsed
	diffs  map[pairKey]*pairDiff
}

type parseKey struct{ manifest, task string }
type pairKey struct{ old, new string }

// NewIndex is the history of the releases cat serves.
func NewIndex(cat *catalog.Catalog) *Index {
	return &Index{cat: cat, parsed: map[parseKey]*parsed{}, diffs: map[pairKey]*pairDiff{}}
}

// Of is the history req asks for among the snapshots, by ascending date.
func Of(ctx context.Context, snaps []*catalog.Snapshot, req Request) (*History, error) {
	return of(ctx, snaps, req, direct{})
}

func of(ctx context.Context, snaps []*catalog.Snapshot, req Request, src source) (*History, error) {
	b, err := newBuilder(ctx, req, src)
	if err != nil {
		return nil, err
	}
	for _, s := range snaps {
		if err := b.Add(s); err != nil {
			return nil, err
		}
	}
	return b.History()
}

// History is the history req asks for among the releases served up to
// and including the date until ("" or catalog.Latest: every one).
func (x *Index) History(ctx context.Context, req Request, until string) (*History, error) {
	snaps, err := x.upTo(until)
	if err != nil {
		return nil, err
	}
	return of(ctx, snaps, req, x)
}

// upTo returns the served snapshots up to and including until.
func (x *Index) upTo(until string) ([]*catalog.Snapshot, error) {
	all := x.cat.Snapshots()
	if until == "" || until == catalog.Latest {
		return all, nil
	}
	last, err := x.cat.Snapshot(until)
	if err != nil {
		return nil, err
	}
	var out []*catalog.Snapshot
	for _, s := range all {
		if s.Date <= last.Date {
			out = append(out, s)
		}
	}
	return out, nil
}

func (x *Index) parse(s *catalog.Snapshot, task format.Task) (*parsed, error) {
	k := parseKey{s.Info().Manifest, task.ID}
	x.mu.Lock()
	p, ok := x.parsed[k]
	x.mu.Unlock()
	if ok {
		return p, nil
	}
	p, err := parse(s, task)
	if err != nil {
		return nil, err
	}
	x.mu.Lock()
	x.parsed[k] = p
	x.mu.Unlock()
	return p, nil
}

func (x *Index) why(ctx context.Context, old, new *catalog.Snapshot) (*pairDiff, error) {
	k := pairKey{old.Info().Manifest, new.Info().Manifest}
	x.mu.Lock()
	d, ok := x.diffs[k]
	x.mu.Unlock()
	if ok {
		return d, nil
	}
	d, err := diffPair(ctx, old, new)
	if err != nil {
		return nil, err
	}
	x.mu.Lock()
	x.diffs[k] = d
	x.mu.Unlock()
	return d, nil
}
