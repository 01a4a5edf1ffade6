"""Income policies: the import of invoices and the rules the company's policies apply to them."""
