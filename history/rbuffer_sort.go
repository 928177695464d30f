package history

import "math/bits"

// maxDigit bounds the digits of sortByKey: a count table of 1<<13 entries
// per pass (32 KiB) stays in the L2 cache, and so do the 8192 lines the
// scatter writes to, while 26-bit sort keys (1.6 M keys of 32 classes)
// take two passes instead of three 11-bit ones. The scatter, which moves
// 32-byte records, is most of the sort's time.
const maxDigit = 13

// sortByKey sorts the buffer by (class, key), stable (so each key's
// intervals stay in time order), leaves the result in both b.recs and
// b.sorted, and returns its encoded size. Sorting by class first puts
// each kind of attribute in its own leaves (see classes.go). It is an LSD
// radix sort on equal digits of at most maxDigit bits of
// (class - min class) << (bits of the largest key) | key that moves the
// records themselves: sequential reads, and count tables that stay in
// cache; a buffer of one class costs no more passes than a key sort. One
// read counts every digit; each pass then only moves records.
//
// The passes go back and forth between recs and one spare buffer (two
// copies of the buffer, not three). When the sort only recalibrates, the
// buffer keeps filling after its sorted records instead of in arrival
// order: the next stable sort gives the same result, since records of one
// (class, key) keep their order and those added later sort after them.
func (b *rbuffer) sortByKey() int64 {
	n := len(b.recs)
	maxKey := int32(0)
	minClass, maxClass := uint16(noClassLo), uint16(noClassHi)
	for i := range b.recs {
		r := &b.recs[i]
		maxKey = max(maxKey, r.key)
		minClass, maxClass = min(minClass, r.class), max(maxClass, r.class)
	}
	keyBits := uint(bits.Len32(uint32(maxKey)))
	valBits := keyBits + uint(bits.Len16(maxClass-minClass))
	passes := max(1, (valBits+maxDigit-1)/maxDigit)
	digit := (valBits + passes - 1) / passes
	mask := uint64(1)<<digit - 1
	val := func(r *rec) uint64 { return uint64(r.class-minClass)<<keyBits | uint64(uint32(r.key)) }

	b.counts = grow(b.counts, int(passes)<<digit)
	clear(b.counts)
	for i := range b.recs {
		v := val(&b.recs[i])
		for p := range passes {
			b.counts[p<<digit|uint(v>>(p*digit)&mask)]++
		}
	}
	b.spare = grow(b.spare, n)
	src, dst := b.recs, b.spare
	for p := range passes {
		count := b.counts[p<<digit : (p+1)<<digit]
		sum := int32(0)
		for i, c := range count {
			sum, count[i] = sum+c, sum
		}
		shift := p * digit
		for i := range src {
			d := val(&src[i]) >> shift & mask
			dst[count[d]] = src[i]
			count[d]++
		}
		src, dst = dst, src
	}
	// src holds the result: it becomes the buffer, the other one the
	// spare of the next sort.
	b.recs, b.spare, b.sorted = src, dst[:cap(dst)], src
	return b.sizeOf(b.sorted, b.minStart)
}
