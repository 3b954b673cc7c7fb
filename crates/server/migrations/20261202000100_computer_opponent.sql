-- Games against the computer: who holds the seat without a token, as the API's opponent JSON
-- (`{"computer":3}`: Jiang's engine at level 3). Null in games between people.
ALTER TABLE games ADD COLUMN opponent TEXT;
