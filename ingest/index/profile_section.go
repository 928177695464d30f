package index

import (
	"errors"
	"fmt"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/history"
	"github.com/tracetui/tracetui/ingest/index/profile"
)

// sectionProfile holds the sampled call stacks (package profile).
const sectionProfile = "profile"

// stackRecorder gives each sample's call stack to the profile writer
// during the build: on the build's goroutine, right after the event is
// read, as core.Stacker asks. A source that is not a Stacker has none;
// its methods then do nothing. One that says it has none (hasStacks) is
// not asked for them, since it may be read ahead on another goroutine,
// and gets its (empty) section.
type stackRecorder struct {
	src    core.Stacker
	w      *profile.Writer
	stacks bool
}

// newStackRecorder returns the recorder of src's stacks, spooling to dir.
func newStackRecorder(src core.Source, dir, prefix string) (*stackRecorder, error) {
	st, ok := src.(core.Stacker)
	if !ok {
		return &stackRecorder{}, nil
	}
	removeStale(dir, prefix+profile.TempPrefix)
	w, err := profile.NewWriter(dir, prefix)
	if err != nil {
		return nil, err
	}
	return &stackRecorder{src: st, w: w, stacks: hasStacks(src)}, nil
}

// add records ev's stack, if it has one.
func (s *stackRecorder) add(ev *core.Event) {
	if s.stacks {
		s.w.AddEvent(ev, s.src)
	}
}

// addSection writes the profile section, if the source has stacks (even
// none was recorded: the section says so, and the browser does not look
// for them in the trace).
func (s *stackRecorder) addSection(b *history.Builder) error {
	if s.w == nil {
		return nil
	}
	size, r, err := s.w.Finish()
	if err != nil {
		return err
	}
	return b.AddSection(sectionProfile, size, r)
}

func (s *stackRecorder) close() {
	if s.w != nil {
		s.w.Close()
	}
}

// Profile returns the sampled call stacks stored with the index: empty
// for a trace without them (a format that records no stack). Damage,
// found at open or later while samples are read, marks the index bad, as
// a damaged node does, so the next open rebuilds it.
func (t *Index) Profile() (*profile.Profile, error) {
	sec, err := t.tree.Section(sectionProfile)
	if errors.Is(err, history.ErrNoSection) {
		return profile.Empty(), nil
	}
	var p *profile.Profile
	if err == nil {
		p, err = profile.Open(sec, sec.Size(), t.profileDamaged)
	}
	if err != nil {
		return nil, t.profileDamaged(err)
	}
	return p, nil
}

// profileDamaged returns err, as ErrDamaged when it is the profile
// section's damage (a failed read, as after Close, is not damage).
func (t *Index) profileDamaged(err error) error {
	if errors.Is(err, profile.ErrCorrupt) || errors.Is(err, profile.ErrVersion) {
		err = fmt.Errorf("%w: %w", history.ErrCorrupt, err)
	}
	return t.damage.check(err)
}
