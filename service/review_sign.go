package service

import (
	"context"
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"

	"fairbalance"
)

// SignatureVerification is what verify_signature answers: whether the
// record is intact (its fields still hash to its seal, signed by the
// instance's key), still bound to its step (the step it names names it
// back, was decided by its signer as recorded, in a round of the version
// it names), and whether the version's bytes still hash to the SHA-256
// it recorded. Valid is all three; Reason says why not, or that it holds.
type SignatureVerification struct {
	Valid            bool   `json:"valid"`
	Reason           string `json:"reason"`
	SealIntact       bool   `json:"seal_intact"`
	BoundToStep      bool   `json:"bound_to_step"`
	RenditionMatches bool   `json:"rendition_matches"`
	SignatureID      string `json:"signature_id"`
	SignerName       string `json:"signer_name"`
	SignedAt         string `json:"signed_at"`
	Meaning          string `json:"meaning"`
}

// verifySignature checks a signature of the caller's organisation.
func (rv *Reviews) verifySignature(ctx context.Context, tx fairbalance.Tx, c fairbalance.Caller, args map[string]any) (any, error) {
	if c.Anon() {
		return nil, denied(c, "permission denied for function verify_signature")
	}
	sig, _, err := mustRowOf[fairbalance.Signature](ctx, tx, c, SignaturesTable(), argString(args, "signature_id"), "Signature")
	if err != nil {
		return nil, err
	}
	return rv.verify(ctx, tx, sig)
}

func (rv *Reviews) verify(ctx context.Context, tx fairbalance.Tx, sig *fairbalance.Signature) (*SignatureVerification, error) {
	out, reasons, err := rv.verifyRecord(ctx, tx, sig)
	if err != nil {
		return nil, err
	}
	sum, err := rv.renditionSHA256(ctx, tx, sig.VersionID)
	if err != nil {
		return nil, err
	}
	return finishVerification(out, reasons, sig, sum), nil
}

// verifyRecord checks what the database and the key tell of a signature:
// its seal and its binding to its step. The rendition is checked apart
// (finishVerification), since reading a version's file is slow and its
// hash serves every signature of the version.
func (rv *Reviews) verifyRecord(ctx context.Context, tx fairbalance.Tx, sig *fairbalance.Signature) (*SignatureVerification, []string, error) {
	out := &SignatureVerification{SignatureID: sig.ID, SignerName: sig.SignerName, SignedAt: sig.SignedAt.UTC().Format("2006-01-02T15:04:05.000000Z"), Meaning: string(sig.Meaning)}
	var reasons []string

	switch err := sig.VerifySeal(rv.signatureKeys()); {
	case err == nil:
		out.SealIntact = true
	case errors.Is(err, fairbalance.ErrSignatureUnknownKey):
		reasons = append(reasons, "The signature was sealed by a key this instance does not hold.")
	default:
		reasons = append(reasons, "The signature record was altered after signing: its fields no longer match its seal.")
	}

	sys := fairbalance.Caller{Role: "service_role"}
	step, _, err := rowOf[fairbalance.ReviewStep](ctx, tx, sys, ReviewStepsTable(), sig.StepID)
	if err != nil {
		return nil, nil, err
	}
	review, _, err := rowOf[fairbalance.Review](ctx, tx, sys, ReviewsTable(), sig.ReviewID)
	if err != nil {
		return nil, nil, err
	}
	switch {
	case step == nil || review == nil || step.OrgID != sig.OrgID:
		reasons = append(reasons, "The step or round the signature names no longer exists.")
	case step.SignatureID == nil || *step.SignatureID != sig.ID:
		reasons = append(reasons, "The step the signature names is signed by another record: the signature was moved.")
	case step.ReviewID != sig.ReviewID || review.VersionID != sig.VersionID || review.AssetID != sig.AssetID:
		reasons = append(reasons, "The signature names another round or version than its step's: the signature was moved.")
	case step.DecidedBy == nil || *step.DecidedBy != sig.SignerID || step.Status != sig.Decision.StepStatus():
		reasons = append(reasons, "The step's decision or decider no longer matches the signature.")
	default:
		out.BoundToStep = true
	}
	return out, reasons, nil
}

// finishVerification adds the rendition check to what verifyRecord found:
// sum is the hex SHA-256 of the signed version's rendition as it is now
// ("" when it can no longer be read).
func finishVerification(out *SignatureVerification, reasons []string, sig *fairbalance.Signature, sum string) *SignatureVerification {
	switch {
	case sum == "":
		reasons = append(reasons, "The signed version's content can no longer be read.")
	case sum != sig.RenditionSHA256:
		reasons = append(reasons, "The version's content no longer matches the SHA-256 recorded when it was signed.")
	default:
		out.RenditionMatches = true
	}
	out.Valid = out.SealIntact && out.BoundToStep && out.RenditionMatches
	if out.Valid {
		out.Reason = "The signature is intact, bound to its step, and the signed version's content matches it."
	} else {
		out.Reason = reasons[0]
	}
	return out
}

// signatureKeys are the public keys signatures are checked with: the
// instance's signing key.
func (rv *Reviews) signatureKeys() map[string]ed25519.PublicKey {
	keys := map[string]ed25519.PublicKey{}
	if key := rv.reg.cfg().SignatureKey; len(key) == ed25519.PrivateKeySize {
		pub := key.Public().(ed25519.PublicKey)
		keys[fairbalance.AuditKeyID(pub)] = pub
	}
	return keys
}

// renditionSHA256 hashes a version's rendition as it is now: the stored
// file's bytes, or the composed version's sanitised HTML. "" when the
// version or its file is gone.
func (rv *Reviews) renditionSHA256(ctx context.Context, tx fairbalance.Tx, versionID string) (string, error) {
	v, _, err := rowOf[fairbalance.Version](ctx, tx, fairbalance.Caller{Role: "service_role"}, AssetVersionsTable(), versionID)
	if err != nil || v == nil {
		return "", err
	}
	if v.Kind == fairbalance.VersionAuthored {
		if v.ContentHTML == nil {
			return "", nil
		}
		sum := sha256.Sum256([]byte(*v.ContentHTML))
		return hex.EncodeToString(sum[:]), nil
	}
	if v.FileBucket == nil || v.FilePath == nil || rv.reg.storage == nil {
		return "", nil
	}
	o, err := tx.ObjectByName(ctx, *v.FileBucket, *v.FilePath)
	if errors.Is(err, fairbalance.ErrNotFound) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	blob, err := rv.reg.storage.Blob(ctx, o)
	if err != nil {
		if fairbalance.AsError(err) != nil {
			return "", nil
		}
		return "", err
	}
	defer blob.Close()
	h := sha256.New()
	if _, err := io.Copy(h, io.NewSectionReader(blob, 0, blob.Size())); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
