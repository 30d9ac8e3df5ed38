package httpapi

import (
	"errors"
	"io"
	"net/http"

	"fairbalance"
)

// readRestBody reads a data API request body. A body over the limit is
// PGRST413 (413); a body that ends before its Content-Length (the client
// broke off) or cannot be read is PGRST102 (400): a client error, never an
// internal one, and nothing was done with it.
func readRestBody(r *http.Request) ([]byte, error) {
	b, err := io.ReadAll(r.Body)
	if err == nil {
		return b, nil
	}
	var mbe *http.MaxBytesError
	if errors.As(err, &mbe) {
		return nil, &fairbalance.Error{Kind: fairbalance.KindTooLarge, Code: "PGRST413", Message: "Request body too large"}
	}
	return nil, &fairbalance.Error{Kind: fairbalance.KindInvalid, Code: "PGRST102", Message: "Empty or invalid json", Details: bodyReadDetails(err)}
}

// bodyReadDetails says why a request body could not be read, without
// internals.
func bodyReadDetails(err error) string {
	if errors.Is(err, io.ErrUnexpectedEOF) {
		return "The request body ended before the length it announced."
	}
	return "The request body could not be read."
}
