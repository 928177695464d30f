package history

import (
	"bufio"
	"context"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"io"
	"math"

	"github.com/tracetui/tracetui/core"
)

// SectionSummary is the name of the section that holds the level-of-detail
// summaries (format in doc.go, "Summaries").
const SectionSummary = "summary"

// Summary section constants.
const (
	summaryMagic   = "LOD1"
	summaryTrailer = 32 // start, end, keys, slots, levels, 3 zero bytes, magic
	// summaryCheckEvery is how many keys the summary pass computes between
	// two looks at the build's context (a few ms at most).
	summaryCheckEvery = 256
)

// writeSummary computes every summarised key's levels from its recorded
// changes and appends them as the summary section.
func (b *Builder) writeSummary(end core.Time) error {
	s := b.sum
	if s == nil {
		return nil
	}
	ctx := b.opts.Context
	if ctx == nil {
		ctx = context.Background()
	}
	s.scan(b.tree)
	levels := core.SummaryLevels(b.start, end)
	if b.side == nil {
		f, err := createTemp(b.path, ".sec")
		if err != nil {
			return err
		}
		b.side = f
	}
	off, err := b.side.Seek(0, io.SeekEnd)
	if err != nil {
		return fmt.Errorf("history: summary section: %w", err)
	}
	h := crc32.New(castagnoli)
	w := bufio.NewWriterSize(io.MultiWriter(b.side, h), 1<<16)
	ends := make([]byte, 0, 4*s.nslots)
	var (
		size  uint64
		ch    []change
		acc   bucketAcc
		entry []byte
		level []byte
	)
	for i := range s.nslots {
		if i%summaryCheckEvery == 0 {
			if err := ctx.Err(); err != nil {
				return fmt.Errorf("history: summary section: %w", err)
			}
		}
		sl := &s.slots[i/sumSlotsPage][i%sumSlotsPage]
		entry = entry[:0]
		if sl.last&sumDroppedBit == 0 {
			ch = s.changes(sl, ch)
			for _, k := range levels {
				level = appendLevel(level[:0], ch, end, k, &acc)
				entry = appendUvarintBytes(entry, level)
			}
		}
		if _, err := w.Write(entry); err != nil {
			return fmt.Errorf("history: summary section: %w", err)
		}
		size += uint64(len(entry))
		if size > math.MaxUint32 {
			return fmt.Errorf("history: summary section over 4 GiB: build with fewer summarised keys")
		}
		ends = le.AppendUint32(ends, uint32(size))
	}
	s.log = nil // the changes are no longer needed
	var idx []byte
	for _, word := range s.words {
		idx = le.AppendUint64(idx, word)
	}
	for _, r := range s.ranks {
		idx = le.AppendUint32(idx, r)
	}
	idx = append(idx, ends...)
	idx = append(idx, levels...)
	idx = le.AppendUint64(idx, uint64(b.start))
	idx = le.AppendUint64(idx, uint64(end))
	idx = le.AppendUint32(idx, uint32(s.scanned))
	idx = le.AppendUint32(idx, uint32(s.nslots))
	idx = append(idx, byte(len(levels)), 0, 0, 0)
	idx = append(idx, summaryMagic...)
	if _, err := w.Write(idx); err != nil {
		return fmt.Errorf("history: summary section: %w", err)
	}
	if err := w.Flush(); err != nil {
		return fmt.Errorf("history: summary section: %w", err)
	}
	b.secs = append(b.secs, section{name: SectionSummary, off: uint64(off), size: size + uint64(len(idx)), crc: h.Sum32()})
	return nil
}

// appendUvarintBytes appends b preceded by its length.
func appendUvarintBytes(dst, b []byte) []byte {
	return append(binary.AppendUvarint(dst, uint64(len(b))), b...)
}
