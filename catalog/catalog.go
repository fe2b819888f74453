// Package catalog holds the dated snapshots that the HTTP API (api/), the
// website (site/) and the MCP server (mcpserver/) answer from, and is the
// one place that prices and lists: the command line's carbon and list read
// their snapshot through it too (FromLoaded), so every surface answers with
// the same objects (Carbon, ModelList, GridList; schemas/carbon.schema.json,
// list-models.schema.json, list-grids.schema.json). It loads every snapshot
// folder under a directory once: each file is read through the regular-file
// guard (internal/regfile), checked against the manifest (size and sha256)
// and against its JSON Schema, and the published files and archived JSON
// sources are kept in memory, each published configuration paired with
// the archived upstream row behind it. Nothing is read from disk to answer
// a request.
//
// A served date is immutable: once loaded, its verified copy is what every
// surface answers for that date until the process restarts. A served folder
// that changes on disk (replaced by build --replace, a file edited, the
// folder turned into a symbolic link) is logged and not loaded again; a
// deleted one stops being served, and a folder that later reappears under
// that date is served again only with the same manifest. A folder that
// fails its checks is logged and tried again once anything in it changes,
// so a folder copied in any order of files is served once it is complete.
// A symbolic link, named pipe, device or socket anywhere in a dated folder
// (or as the dated folder itself) is refused and logged. "latest" names the
// greatest date served.
//
// Prices come from the archived upstream rows, unrounded, with the index's
// own rules (FindModel, pricing.Lookup, pricing.KgPerBillionTokens, the index
// row rule of pricing.BestWith): see Price.
package catalog

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"sync"
	"time"
)

// Latest is the name that stands for the greatest date served.
const Latest = "latest"

// Catalog is the set of snapshots served from one directory. It is safe for
// concurrent use; a *Snapshot never changes.
type Catalog struct {
	dir string
	log *slog.Logger

	scan sync.Mutex // one Rescan at a time

	mu    sync.RWMutex
	snaps map[string]*Snapshot
	dates []string // served dates, ascending

	// Guarded by scan: what the last scans saw of each dated entry, and the
	// manifest sha256 of each date served since the start (a date stays
	// bound to those bytes until restart, even once its folder is deleted).
	seen  map[string]string // date: folder fingerprint, or the refusal
	bound map[string]string
}

// New is a catalog of the dated folders under dir that serves nothing until
// Rescan (or Run) loads them: a server can listen first.
func New(dir string, log *slog.Logger) *Catalog {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Catalog{dir: dir, log: log, snaps: map[string]*Snapshot{}, seen: map[string]string{}, bound: map[string]string{}}
}

// Open is New and Load. A folder that fails its checks is logged and left
// out; Open fails only when dir cannot be read. A catalog with no snapshot
// is not an error: Ready says whether one is served.
func Open(dir string, log *slog.Logger) (*Catalog, error) {
	c := New(dir, log)
	if _, err := c.Load(); err != nil {
		return nil, err
	}
	return c, nil
}

// Load is the first Rescan of a server starting. When it leaves nothing
// served (the folder holds no dated folder, or none that passes its
// checks), a warning names the folder and says there is nothing to
// serve; the server answers every snapshot not found until one is.
func (c *Catalog) Load() ([]string, error) {
	added, err := c.Rescan()
	if err != nil {
		return nil, err
	}
	if !c.Ready() {
		c.scan.Lock()
		dated := len(c.seen)
		c.scan.Unlock()
		c.log.Warn("nothing to serve: the snapshots folder holds no dated snapshot (YYYY-MM-DD/) that passes its checks; every snapshot is answered not found until one is served",
			"dir", c.dir, "dated_folders", dated)
	}
	return added, nil
}

// Rescan looks at every dated entry (YYYY-MM-DD) of the directory, loads
// the folders that appeared or changed since the last scan and are not
// served yet, stops serving the dates whose folder is gone, and returns the
// dates it added. An entry is looked at again only when its fingerprint
// (every file's path, kind, size and modification time) changed; one bad
// folder never stops the scan of the others.
func (c *Catalog) Rescan() ([]string, error) {
	c.scan.Lock()
	defer c.scan.Unlock()
	entries, err := os.ReadDir(c.dir)
	if err != nil {
		return nil, fmt.Errorf("catalog: reading the snapshots folder: %w", err)
	}
	var added []string
	present := map[string]bool{}
	for _, e := range entries {
		date := e.Name()
		if !isDate(date) {
			continue
		}
		present[date] = true
		if c.look(date) {
			added = append(added, date)
		}
	}
	for date := range c.seen {
		if present[date] {
			continue
		}
		delete(c.seen, date)
		c.mu.Lock()
		_, served := c.snaps[date]
		c.drop(date)
		c.mu.Unlock()
		if served {
			c.log.Warn("snapshot folder deleted; no longer served", "date", date)
		}
	}
	return added, nil
}

// look examines the dated entry date and serves it when it is new, complete
// and passes its checks; it reports whether it began serving it. c.scan is
// held.
func (c *Catalog) look(date string) bool {
	dir := filepath.Join(c.dir, date)
	fp, refusal := fingerprint(dir)
	key := fp
	if refusal != nil {
		key = "refused: " + refusal.Error()
	}
	if c.seen[date] == key {
		return false
	}
	c.seen[date] = key
	c.mu.RLock()
	old, served := c.snaps[date]
	c.mu.RUnlock()
	switch {
	case served:
		c.log.Warn("snapshot folder changed on disk; still serving the copy verified when it was loaded (a served date is immutable: restart to serve the new folder)",
			"date", date, "manifest_sha256", old.Info().Manifest, "change", changeOf(refusal))
		return false
	case refusal != nil:
		c.log.Error("snapshot not served", "date", date, "err", refusal)
		return false
	}
	s, err := load(dir, date)
	if err == nil {
		// A folder being written (copied, built) while it was read is read
		// again once it settles.
		if again, _ := fingerprint(dir); again != fp {
			c.seen[date] = ""
			c.log.Info("snapshot folder changed while it was loaded; trying again at the next scan", "date", date)
			return false
		}
	}
	if err != nil {
		c.log.Error("snapshot not served", "date", date, "err", err)
		return false
	}
	if was, ok := c.bound[date]; ok && was != s.Info().Manifest {
		c.log.Error("snapshot not served: this date was served with other bytes since the server started (a served date is immutable: restart to serve the new folder)",
			"date", date, "manifest_sha256", s.Info().Manifest, "served_manifest_sha256", was)
		return false
	}
	c.bound[date] = s.Info().Manifest
	c.mu.Lock()
	c.snaps[date] = s
	c.dates = append(c.dates, date)
	sort.Strings(c.dates)
	c.mu.Unlock()
	c.log.Info("snapshot served", "date", date, "models", len(s.Models), "grid_year", s.GridYear)
	return true
}

func changeOf(refusal error) string {
	if refusal != nil {
		return refusal.Error()
	}
	return "files added, removed or modified"
}

// drop stops serving date, if it is served; c.mu is held.
func (c *Catalog) drop(date string) {
	if _, ok := c.snaps[date]; !ok {
		return
	}
	delete(c.snaps, date)
	c.dates = slices.DeleteFunc(c.dates, func(d string) bool { return d == date })
}

// Run rescans every interval until ctx is done. A failed scan is logged.
func (c *Catalog) Run(ctx context.Context, interval time.Duration) {
	if interval <= 0 {
		return
	}
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			if _, err := c.Rescan(); err != nil {
				c.log.Error("rescan failed", "err", err)
			}
		}
	}
}

// Ready reports whether at least one snapshot is served.
func (c *Catalog) Ready() bool {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return len(c.dates) > 0
}

// Dates returns the served dates, ascending.
func (c *Catalog) Dates() []string {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return append([]string(nil), c.dates...)
}

// Snapshots returns the served snapshots, by ascending date.
func (c *Catalog) Snapshots() []*Snapshot {
	c.mu.RLock()
	defer c.mu.RUnlock()
	out := make([]*Snapshot, len(c.dates))
	for i, d := range c.dates {
		out[i] = c.snaps[d]
	}
	return out
}

// Snapshot returns the snapshot of date, or the latest for "latest" or "".
// An unknown date is a NotFound error naming the nearest dates; a name
// over MaxNameBytes is Invalid.
func (c *Catalog) Snapshot(date string) (*Snapshot, error) {
	if err := checkName("snapshot", date); err != nil {
		return nil, err
	}
	c.mu.RLock()
	defer c.mu.RUnlock()
	if date == "" || date == Latest {
		if len(c.dates) == 0 {
			return nil, &Error{Kind: NotFound, What: "snapshot", Query: Latest, Detail: "no snapshot is served yet"}
		}
		return c.snaps[c.dates[len(c.dates)-1]], nil
	}
	if s, ok := c.snaps[date]; ok {
		return s, nil
	}
	return nil, notFound("snapshot", date, nearest(date, c.dates))
}

func isDate(name string) bool {
	if len(name) != len(time.DateOnly) {
		return false
	}
	_, err := time.Parse(time.DateOnly, name)
	return err == nil
}
