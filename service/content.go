package service

// Refusals of the content functions, as the contract words them.
const (
	msgInReview = "This asset is in review; withdraw it before adding a version."
	msgArchived = "Archived assets cannot change."
)
