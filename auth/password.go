package auth

import (
	"context"
	"errors"
	"runtime"
	"strings"
	"sync"
	"unicode"

	"github.com/alexedwards/argon2id"
	"golang.org/x/crypto/bcrypt"
)

// Params are the argon2id parameters: OWASP's recommended minimum
// (19 MiB, two passes, one lane).
var Params = &argon2id.Params{Memory: 19 * 1024, Iterations: 2, Parallelism: 1, SaltLength: 16, KeyLength: 32}

// MaxPasswordLength is the longest password accepted, as in GoTrue (bcrypt's
// limit; kept so that imported accounts behave alike).
const MaxPasswordLength = 72

// Hasher hashes and verifies passwords with at most N hashes running at once,
// so a burst of sign-ins queues instead of exhausting memory.
type Hasher struct {
	sem       chan struct{}
	dummyOnce sync.Once
	dummy     string
}

// NewHasher returns a Hasher running at most n hashes at once (n <= 0: one
// per CPU).
func NewHasher(n int) *Hasher {
	if n <= 0 {
		n = runtime.NumCPU()
	}
	return &Hasher{sem: make(chan struct{}, n)}
}

// dummyHash is a real hash of nothing anyone knows, made on first need so
// that start-up does not pay for it.
func (h *Hasher) dummyHash() string {
	h.dummyOnce.Do(func() {
		d, err := argon2id.CreateHash("fairbalance-timing-equaliser", Params)
		if err != nil {
			panic(err) // only fails if crypto/rand fails
		}
		h.dummy = d
	})
	return h.dummy
}

func (h *Hasher) acquire(ctx context.Context) error {
	select {
	case h.sem <- struct{}{}:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (h *Hasher) release() { <-h.sem }

// Hash returns the argon2id PHC string of password.
func (h *Hasher) Hash(ctx context.Context, password string) (string, error) {
	if err := h.acquire(ctx); err != nil {
		return "", err
	}
	defer h.release()
	return argon2id.CreateHash(password, Params)
}

// ErrUnknownHash is returned for a stored hash in an unsupported format.
var ErrUnknownHash = errors.New("auth: unknown password hash format")

// Verify reports whether password matches hash, an argon2id PHC string or a
// bcrypt hash (accounts imported from GoTrue). An empty hash never matches
// but costs the same time as a real check, so that an unknown account and a
// wrong password cannot be told apart by timing.
func (h *Hasher) Verify(ctx context.Context, password, hash string) (bool, error) {
	if err := h.acquire(ctx); err != nil {
		return false, err
	}
	defer h.release()
	switch {
	case hash == "":
		_, _ = argon2id.ComparePasswordAndHash(password, h.dummyHash())
		return false, nil
	case strings.HasPrefix(hash, "$argon2id$"):
		return argon2id.ComparePasswordAndHash(password, hash)
	case strings.HasPrefix(hash, "$2a$"), strings.HasPrefix(hash, "$2b$"), strings.HasPrefix(hash, "$2y$"):
		err := bcrypt.CompareHashAndPassword([]byte(hash), []byte(password))
		if errors.Is(err, bcrypt.ErrMismatchedHashAndPassword) {
			return false, nil
		}
		return err == nil, err
	}
	return false, ErrUnknownHash
}

// Password policy reasons, as GoTrue reports them in weak_password.reasons.
const (
	ReasonLength     = "length"
	ReasonCharacters = "characters"
)

// MinPasswordLength is the specification's minimum.
const MinPasswordLength = 8

// CheckPassword applies the policy (at least 8 characters with a lowercase
// letter, an uppercase letter and a digit). It returns nil when the password
// is acceptable, otherwise the reasons and a message naming every rule broken.
func CheckPassword(pw string) (reasons []string, message string) {
	var msgs []string
	if len([]rune(pw)) < MinPasswordLength {
		reasons = append(reasons, ReasonLength)
		msgs = append(msgs, "Password should be at least 8 characters.")
	}
	var lower, upper, digit bool
	for _, r := range pw {
		switch {
		case unicode.IsLower(r):
			lower = true
		case unicode.IsUpper(r):
			upper = true
		case unicode.IsDigit(r):
			digit = true
		}
	}
	if !lower || !upper || !digit {
		reasons = append(reasons, ReasonCharacters)
		msgs = append(msgs, "Password should contain at least one character of each: abcdefghijklmnopqrstuvwxyz, ABCDEFGHIJKLMNOPQRSTUVWXYZ, 0123456789.")
	}
	return reasons, strings.Join(msgs, " ")
}

// Warm prepares the hasher's timing equaliser; call it in the background
// after start-up so the first failed sign-in costs the same as the others.
func (h *Hasher) Warm() { h.dummyHash() }
