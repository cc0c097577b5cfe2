"""Club leagues: seasons of games between a league's entrants. pbem.leagues.schedule
says who plays whom, in which seat and in which round, without touching the
database, so the balance it promises can be checked for every season size."""
