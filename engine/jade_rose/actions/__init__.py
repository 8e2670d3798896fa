"""Handlers of the «Экономика» orders every faction gives (buildings, cities, hiring) and the runner that
applies a faction's orders in the rulings' order; faction actions live in the faction modules."""
