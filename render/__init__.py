"""Pictures of tables, hands, score sheets and leaderboards, drawn from views (Pillow only here)."""
