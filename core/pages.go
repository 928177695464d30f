package core

// AppendPaged appends v, element n, to an array kept in pages of pageLen
// elements, and returns the pages: element i is pages[i/pageLen][i%pageLen].
// Such an array grows without copying itself (an array of millions of
// elements held twice, and copied, each time it doubled). The first page
// grows by appending, so that a small array stays small; the next ones
// are made whole, since an array that filled one page is likely to fill
// more.
func AppendPaged[T any](pages [][]T, n, pageLen int, v T) [][]T {
	if n%pageLen == 0 {
		var page []T
		if n > 0 {
			page = make([]T, 0, pageLen)
		}
		pages = append(pages, page)
	}
	last := &pages[len(pages)-1]
	*last = append(*last, v)
	return pages
}
