package snapshots

import (
	"fmt"

	"github.com/leadgreen/greentokens/internal/failure"

	"github.com/leadgreen/greentokens/fetch"
	"github.com/leadgreen/greentokens/format"
	"github.com/leadgreen/greentokens/transform"
)

// DeriveModels derives the models again from the snapshot's archived
// leaderboard sources, so that a caller works from the unrounded upstream
// rows (carbon prices the unrounded Wh/M). Each source is read through
// Bytes, so it is the one the manifest lists, byte for byte; a source that
// has changed since Load is an failure.ErrValidation.
func (s *Snapshot) DeriveModels() ([]*transform.Built, error) {
	var files transform.LeaderboardFiles
	for _, src := range []struct {
		name string
		dst  *[]byte
	}{
		{fetch.LeaderboardIndex, &files.Index},
		{fetch.LeaderboardCommits, &files.Commits},
		{format.PrimaryTask().File(), &files.Primary},
	} {
		rel := "sources/" + src.name
		b, ok := s.Bytes(rel)
		if !ok {
			return nil, fmt.Errorf("%w: %s: %s is missing or no longer matches %s", failure.ErrValidation, s.Dir, rel, format.ManifestPath)
		}
		*src.dst = b
	}
	lb, _, err := transform.NewLeaderboard(files, "", "")
	if err != nil {
		return nil, fmt.Errorf("%w: %s: archived sources: %v", failure.ErrValidation, s.Dir, err)
	}
	return transform.Models(lb)
}
