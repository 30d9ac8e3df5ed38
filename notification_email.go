package fairbalance

// E-mail of the review workflow's notifications. Every notification is
// shown in the app; its e-mail goes out when the recipient's notification
// preferences (table notification_preferences, one switch per group of
// events) allow it. A member without saved preferences has the defaults:
// every switch on but the weekly digest.

// The switches of notification_preferences that govern review e-mails.
const (
	// PrefReviewAssigned: a step became active for my role, or was
	// assigned to me.
	PrefReviewAssigned = "review_assigned"
	// PrefReviewDecision: a decision on my asset, its round closed, my
	// approved asset withdrawn.
	PrefReviewDecision = "review_decision"
	// PrefDueReminders: a step of mine is due tomorrow or overdue (or a
	// step of my submission is overdue).
	PrefDueReminders = "due_reminders"
	// PrefAssetExpiring: my approved asset expires within 30 days, or
	// expired.
	PrefAssetExpiring = "asset_expiring"
	// PrefSigningLocked: a member's signing was locked (to administrators).
	PrefSigningLocked = "signing_locked"
	// PrefCommentMention: someone mentioned me in a comment.
	PrefCommentMention = "comment_mention"
)

// notificationPrefs maps every NotificationKind to its switch.
var notificationPrefs = map[NotificationKind]string{
	NotifyStepActivated:  PrefReviewAssigned,
	NotifyStepAssigned:   PrefReviewAssigned,
	NotifyDecision:       PrefReviewDecision,
	NotifyRoundClosed:    PrefReviewDecision,
	NotifyAssetWithdrawn: PrefReviewDecision,
	NotifyDueSoon:        PrefDueReminders,
	NotifyOverdue:        PrefDueReminders,
	NotifyExpirySoon:     PrefAssetExpiring,
	NotifyExpired:        PrefAssetExpiring,
	NotifySigningLocked:  PrefSigningLocked,
	NotifyMentioned:      PrefCommentMention,
}

// EmailPreference is the notification_preferences switch that says
// whether a notification of kind k is also e-mailed ("" for an unknown
// kind, never e-mailed).
func (k NotificationKind) EmailPreference() string { return notificationPrefs[k] }

// EmailPreferenceDefault is the value of a switch for a member who saved
// no preferences: on.
const EmailPreferenceDefault = true
