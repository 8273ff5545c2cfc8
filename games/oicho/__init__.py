"""Oicho-Kabu (おいちょかぶ): rules, hands, actions, engine, views, baseline policy."""
