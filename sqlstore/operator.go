package sqlstore

import (
	"context"
	"database/sql"

	"fairbalance"
)

func (q *querier) IsOperator(ctx context.Context, userID string) (bool, error) {
	var n int
	if err := q.row(ctx, `SELECT COUNT(*) FROM instance_operators WHERE user_id = ?`, userID).Scan(&n); err != nil {
		return false, translate(err)
	}
	return n > 0, nil
}

func (q *querier) AddOperator(ctx context.Context, o *fairbalance.Operator) (bool, error) {
	res, err := q.exec(ctx, `INSERT INTO instance_operators (user_id, granted_by, created_at) VALUES (?, ?, ?) ON CONFLICT (user_id) DO NOTHING`,
		o.UserID, o.GrantedBy, o.CreatedAt.UTC())
	if err != nil {
		return false, translate(err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return false, err
	}
	return n > 0, nil
}

func (q *querier) RemoveOperator(ctx context.Context, userID string) error {
	return mustAffect(q.exec(ctx, `DELETE FROM instance_operators WHERE user_id = ?`, userID))
}

func (q *querier) CountOperators(ctx context.Context) (int, error) {
	var n int
	err := q.row(ctx, `SELECT COUNT(*) FROM instance_operators o JOIN users u ON u.id = o.user_id WHERE u.deleted_at IS NULL`).Scan(&n)
	return n, translate(err)
}

func (q *querier) ListOperators(ctx context.Context) ([]fairbalance.Operator, error) {
	rows, err := q.query(ctx, `SELECT o.user_id, u.email, o.granted_by, o.created_at FROM instance_operators o JOIN users u ON u.id = o.user_id ORDER BY o.created_at, o.user_id`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []fairbalance.Operator
	for rows.Next() {
		var o fairbalance.Operator
		var email sql.NullString
		if err := rows.Scan(&o.UserID, &email, &o.GrantedBy, &o.CreatedAt); err != nil {
			return nil, err
		}
		o.Email, o.CreatedAt = email.String, o.CreatedAt.UTC()
		out = append(out, o)
	}
	return out, rows.Err()
}
